package dev.canal.binlog.net;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * Where a key store comes from, as Connector/J's {@code ...CertificateKeyStoreType/Url/Password} describe it.
 *
 * @param type key store type ({@code JKS}, {@code PKCS12}, ...)
 * @param url a {@code file:} (or other) URL, or a plain file path
 * @param password may be null for a store without one
 */
public record KeyStoreSource(String type, String url, String password) {

    public KeyStoreSource {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("key store type must not be blank for " + url);
        }
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("key store URL must not be blank");
        }
    }

    char[] passwordChars() {
        return password == null ? null : password.toCharArray();
    }

    KeyStore load() throws IOException {
        try (InputStream in = open()) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, passwordChars());
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot load " + type + " key store " + url + ": " + e.getMessage(), e);
        }
    }

    /** The location as a URL: a plain file path becomes its absolute {@code file:} URL. */
    public String asUrl() {
        boolean hasScheme = url.matches("[a-zA-Z][a-zA-Z0-9+.-]+:.*");
        return hasScheme ? url : Path.of(url).toAbsolutePath().toUri().toString();
    }

    private InputStream open() throws IOException {
        return URI.create(asUrl()).toURL().openStream();
    }

    @Override
    public String toString() {
        return "KeyStoreSource[type=" + type + ", url=" + url + "]"; // never the password
    }
}
