package dev.canal.binlog.net;

import java.util.Arrays;
import java.util.Locale;

/** {@code canal.instance.master.sslMode}: how (and whether) the connection to the source uses TLS. */
public enum SslMode {
    /** Plain TCP. */
    DISABLED,
    /** TLS when the server offers it, plain otherwise; the certificate is not checked. */
    PREFERRED,
    /** TLS or fail; the certificate is not checked. */
    REQUIRED,
    /** TLS with the server certificate checked against the trust store (or the JVM's), host name not checked. */
    VERIFY_CA,
    /** As VERIFY_CA, and the certificate must name the host we connected to. */
    VERIFY_IDENTITY;

    public static SslMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown sslMode '" + text + "', expected one of "
                    + Arrays.toString(values()), e);
        }
    }

    boolean verifiesCertificate() {
        return this == VERIFY_CA || this == VERIFY_IDENTITY;
    }
}
