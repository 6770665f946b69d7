package dev.canal.connector.mq;

/**
 * The broker side of exactly-once delivery (docs/mq.md): a broker whose transactions commit a destination's
 * messages together with its cursor, and that fences every earlier producer of a destination when a new one opens.
 * Destinations share it; each opens a session of its own.
 */
public interface MqTransactionalProducer extends AutoCloseable {

    /**
     * Opens the destination's producer under the same name on every server: any earlier producer of the destination,
     * here or on another server, is fenced (it can commit nothing more) and what it left in flight is aborted; then
     * reads the cursor committed last.
     *
     * @throws MqSendException when the broker does not answer or refuses; nothing is left open then
     */
    MqTransactionalSession open(String destination) throws MqSendException, InterruptedException;

    @Override
    void close();
}
