package dev.agentdesk.notify;

/**
 * Delivery counters since start, as {@code /api/health} shows them.
 *
 * @param pending deliveries queued or waiting for a retry now
 * @param delivered deliveries that reached their channel
 * @param failedAttempts attempts that failed (each retry counts)
 * @param dropped deliveries given up after the last try, or at once for an error retrying cannot fix
 * @param droppedQueueFull deliveries refused because the queue was full
 * @param lastFailure the last failure, "channel: reason", or null
 */
public record DeliveryStats(int pending, long delivered, long failedAttempts, long dropped, long droppedQueueFull,
    String lastFailure) {}
