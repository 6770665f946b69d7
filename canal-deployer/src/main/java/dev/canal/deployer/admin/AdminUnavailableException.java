package dev.canal.deployer.admin;

/** canal-admin could not be asked or gave an answer this server cannot use; the message says which and why. */
public final class AdminUnavailableException extends RuntimeException {

    public AdminUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public AdminUnavailableException(String message) {
        super(message);
    }
}
