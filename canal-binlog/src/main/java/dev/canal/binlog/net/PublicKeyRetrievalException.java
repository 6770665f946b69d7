package dev.canal.binlog.net;

import java.io.IOException;

/**
 * The server asked for the password to be sent with its RSA public key over a connection without TLS, and fetching
 * that key is not allowed ({@link SslOptions#allowPublicKeyRetrieval()}). Retrying cannot help; the configuration
 * must change.
 */
public final class PublicKeyRetrievalException extends IOException {

    public PublicKeyRetrievalException(String message) {
        super(message);
    }
}
