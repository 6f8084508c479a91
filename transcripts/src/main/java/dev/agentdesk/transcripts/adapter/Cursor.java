package dev.agentdesk.transcripts.adapter;

/**
 * Where an incremental read of one file stopped.
 *
 * @param fileKey the file's identity (device and inode where the OS has them)
 * @param offset byte offset just past the last consumed line
 * @param line number of lines consumed
 * @param headHash digest of the file's first {@code min(offset, 4096)} bytes, to notice rewrites
 * @param state adapter-private carry-over between reads (compact JSON), never interpreted elsewhere
 */
public record Cursor(String fileKey, long offset, long line, String headHash, String state) {}
