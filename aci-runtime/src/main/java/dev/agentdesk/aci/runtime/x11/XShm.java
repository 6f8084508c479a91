package dev.agentdesk.aci.runtime.x11;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** libXext's MIT-SHM calls plus the SysV shared-memory calls from libc that back them. */
interface XShm extends Library {
  XShm X = Native.load("Xext", XShm.class);

  boolean XShmQueryExtension(Pointer display);

  /** XShmSegmentInfo is {shmseg: unsigned long, shmid: int, shmaddr: char*, readOnly: Bool}: 32 bytes. */
  Pointer XShmCreateImage(Pointer display, Pointer visual, int depth, int format, Pointer data, Memory shminfo,
      int width, int height);

  boolean XShmAttach(Pointer display, Memory shminfo);

  boolean XShmDetach(Pointer display, Memory shminfo);

  boolean XShmGetImage(Pointer display, long drawable, Pointer image, int x, int y, long planeMask);

  /** SysV shm from libc. */
  interface SysV extends Library {
    SysV C = Native.load("c", SysV.class);
    int IPC_PRIVATE = 0;
    int IPC_CREAT = 01000;
    int IPC_RMID = 0;

    int shmget(int key, long size, int flags);

    Pointer shmat(int id, Pointer addr, int flags);

    int shmdt(Pointer addr);

    int shmctl(int id, int cmd, Pointer buf);
  }
}
