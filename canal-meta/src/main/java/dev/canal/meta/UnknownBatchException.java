package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;

/**
 * A batch id that has no outstanding mark for the client. The message is the tail Canal shares between
 * its ack and rollback errors, so the server can prefix {@code "ack error , "} or
 * {@code "rollback error, "} to get Canal's exact text.
 */
public final class UnknownBatchException extends MetaManagerException {

    private final ClientIdentity client;
    private final long batchId;

    public UnknownBatchException(ClientIdentity client, long batchId) {
        super(String.format("clientId:%s batchId:%d is not exist , please check", client.clientId(), batchId));
        this.client = client;
        this.batchId = batchId;
    }

    public ClientIdentity client() {
        return client;
    }

    public long batchId() {
        return batchId;
    }
}
