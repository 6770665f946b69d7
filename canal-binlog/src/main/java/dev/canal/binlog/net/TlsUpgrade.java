package dev.canal.binlog.net;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** Turns the connected plain socket into a TLS one after SSLRequest, as {@link SslOptions} asks. */
final class TlsUpgrade {

    private TlsUpgrade() {
    }

    static SSLSocket handshake(Socket plain, String host, int port, SslOptions options) throws IOException {
        SSLContext context = context(options);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
        String[] wanted = options.tlsVersions().toArray(String[]::new);
        String[] usable = Arrays.stream(wanted)
                .filter(v -> Arrays.asList(tls.getSupportedProtocols()).contains(v)).toArray(String[]::new);
        if (usable.length == 0) {
            throw new IOException("none of tlsVersions " + options.tlsVersions() + " is supported by this JVM");
        }
        tls.setEnabledProtocols(usable);
        tls.setUseClientMode(true);
        if (options.mode() == SslMode.VERIFY_IDENTITY) {
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // checks the host name against the certificate
            tls.setSSLParameters(parameters);
        }
        try {
            tls.startHandshake();
        } catch (IOException e) {
            throw new IOException("TLS handshake with " + host + ":" + port + " failed (sslMode=" + options.mode()
                    + "): " + e.getMessage(), e);
        }
        return tls;
    }

    private static SSLContext context(SslOptions options) throws IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(options), trustManagers(options), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS for " + options + ": " + e.getMessage(), e);
        }
    }

    private static KeyManager[] keyManagers(SslOptions options) throws IOException, GeneralSecurityException {
        if (options.clientKeyStore() == null) {
            return null;
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(options.clientKeyStore().load(), options.clientKeyStore().passwordChars());
        return factory.getKeyManagers();
    }

    private static TrustManager[] trustManagers(SslOptions options) throws IOException, GeneralSecurityException {
        if (!options.mode().verifiesCertificate()) {
            // PREFERRED and REQUIRED encrypt without checking who answers, as MySQL clients do in those modes
            return new TrustManager[] {new AcceptAnyCertificate()};
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(options.trustStore() == null ? null : options.trustStore().load());
        return factory.getTrustManagers();
    }

    private static final class AcceptAnyCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // only the client side of a connection is ours; never asked
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // deliberately unchecked: see trustManagers
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
