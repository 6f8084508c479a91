package dev.agentdesk.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Screen size of the Xvfb that {@link XvfbExtension} starts for the annotated test class. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface XvfbConfig {
  int width() default 1280;

  int height() default 800;
}
