package dev.canal.deployer.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.UntrustedText;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks canal-admin for this server's configuration over its polling endpoints (Canal's PlainCanalConfigClient;
 * docs/admin.md): {@code GET http://{canal.admin.manager}/api/v1/config/...} with the headers {@code user} and
 * {@code passwd} ({@code canal.admin.user}, {@code canal.admin.passwd}). Each request sends the MD5 of what this
 * server holds; canal-admin answers {@code {"code":20000,"data":{"content":...}}} with the content when it changed
 * and {@code "data":null} when it did not. Any other answer is an {@link AdminUnavailableException} naming the
 * endpoint and what was wrong, never a silent "no change".
 */
public final class AdminConfigClient {

    /** canal-admin's code for success. */
    public static final int OK = 20000;
    public static final String SERVER_POLLING = "/api/v1/config/server_polling";
    public static final String INSTANCES_POLLING = "/api/v1/config/instances_polling";
    public static final String INSTANCE_POLLING = "/api/v1/config/instance_polling/";
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(AdminConfigClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminConfig config;
    private final String registerIp;
    private final String registerName;
    private final HttpClient http;

    /**
     * @param registerIp   this server's address as canal-admin knows it ({@code canal.register.ip}, else the host's)
     * @param registerName the name it registers under when {@code canal.admin.register.name} is empty
     */
    public AdminConfigClient(AdminConfig config, String registerIp, String registerName) {
        this.config = Objects.requireNonNull(config, "config");
        this.registerIp = Objects.requireNonNull(registerIp, "registerIp");
        this.registerName = config.registerName().isEmpty() ? registerName : config.registerName();
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    public String manager() {
        return config.manager();
    }

    /** canal.properties for this server, registering it first when {@code canal.admin.register.auto} is on. */
    public RemoteConfig server(String heldMd5) {
        return content(SERVER_POLLING, query("ip", registerIp, "port", String.valueOf(config.registrationPort()),
                "md5", heldMd5, "register", config.registerAuto() ? "1" : "0", "cluster", config.registerCluster(),
                "name", registerName));
    }

    /** The comma-separated names of the instances canal-admin runs on this server; null when unchanged. */
    public RemoteConfig instances(String heldMd5) {
        return content(INSTANCES_POLLING, query("md5", heldMd5, "ip", registerIp,
                "port", String.valueOf(config.registrationPort())));
    }

    /** A destination's instance.properties; null when unchanged. */
    public RemoteConfig instance(String destination, String heldMd5) {
        return content(INSTANCE_POLLING + URLEncoder.encode(destination, StandardCharsets.UTF_8),
                query("md5", heldMd5));
    }

    /**
     * The names in an instance list as canal-admin sends it. A name that is no valid destination name (a path, say)
     * is reported and left out, before it reaches a log file's name, a path or the instance generator.
     */
    public static List<String> names(RemoteConfig list) {
        List<String> names = Arrays.stream(list.content().split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .distinct().toList();
        names.stream().filter(name -> !DestinationNameRule.isWellFormed(name)).forEach(name ->
                log.error("canal-admin lists destination {}, which is not a valid name; it is left out",
                        UntrustedText.quote(name)));
        return names.stream().filter(DestinationNameRule::isWellFormed).toList();
    }

    /** The content of the answer's {@code data}, or null when canal-admin says nothing changed. */
    private RemoteConfig content(String path, String query) {
        URI uri = URI.create("http://" + config.manager() + path + "?" + query);
        String endpoint = "canal-admin " + config.manager() + path;
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                    .header("user", config.credentials().user())
                    .header("passwd", config.credentials().passwordHash())
                    .GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AdminUnavailableException(endpoint + " is unreachable (" + AdminConfig.MANAGER.name() + "): "
                    + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminUnavailableException(endpoint + ": interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new AdminUnavailableException(endpoint + " answered HTTP " + response.statusCode());
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AdminUnavailableException(endpoint + " answered something that is not JSON: "
                    + abbreviate(response.body()), e);
        }
        if (answer == null || !answer.isObject() || !answer.path("code").canConvertToInt()) {
            throw new AdminUnavailableException(endpoint + " answered JSON without a numeric code: "
                    + abbreviate(response.body()));
        }
        int code = answer.get("code").asInt();
        if (code != OK) {
            throw new AdminUnavailableException(endpoint + " refused the request (code " + code + "): "
                    + answer.path("message").asText("") + "; check " + AdminConfig.USER.name() + " / " + AdminConfig.PASSWD.name()
                    + " and that canal-admin knows this server as " + registerIp + ":" + config.registrationPort());
        }
        JsonNode data = answer.get("data");
        if (data == null || data.isNull()) {
            return null;
        }
        JsonNode content = data.get("content");
        if (content == null || !content.isTextual()) {
            throw new AdminUnavailableException(endpoint + " answered data without a text content: "
                    + abbreviate(response.body()));
        }
        return RemoteConfig.of(content.asText());
    }

    private static String query(String... keyValues) {
        StringBuilder query = new StringBuilder();
        for (int i = 0; i < keyValues.length; i += 2) {
            if (i > 0) {
                query.append('&');
            }
            String value = keyValues[i + 1] == null ? "" : keyValues[i + 1];
            query.append(keyValues[i]).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
        return query.toString();
    }

    /** The exception's type and the first message along its causes (the JDK's client often wraps a bare one). */
    private static String describe(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                return e.getClass().getSimpleName() + ": " + cause.getMessage();
            }
        }
        return e.getClass().getSimpleName();
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
