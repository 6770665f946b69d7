package dev.canal.deployer.admin;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;

/**
 * A configuration held by canal-admin: canal.properties, an instance's instance.properties, or the list of this
 * server's instances, as text; with its MD5 (lowercase hex of the UTF-8 bytes), which this server sends back on
 * the next poll so canal-admin answers only when it changed.
 */
public record RemoteConfig(String content, String md5) {

    public static RemoteConfig of(String content) {
        return new RemoteConfig(content, md5(content));
    }

    public static String md5(String content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                    .digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides MD5", e);
        }
    }

    /** The content read as a properties file. @throws IllegalArgumentException when it is not one */
    public Properties properties() {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(content));
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        }
        return properties;
    }
}
