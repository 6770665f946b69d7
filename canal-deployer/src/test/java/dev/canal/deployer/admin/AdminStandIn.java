package dev.canal.deployer.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for canal-admin's polling endpoints (docs/admin.md), answering from a fixture: this server's
 * canal.properties and its instances' configurations, which a test changes as an operator would in canal-admin.
 * Like canal-admin it checks the {@code user} / {@code passwd} headers, answers {@code data: null} when the
 * {@code md5} sent matches what it holds, and records every request's query so a test can see the registration.
 */
public final class AdminStandIn implements AutoCloseable {

    /** What the stand-in answers besides the normal replies. */
    public enum Mode { NORMAL, NOT_JSON, HTTP_500 }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String user;
    private volatile String passwordHash;
    private final HttpServer http;
    private volatile String serverConfig;
    private final Map<String, String> instances = new ConcurrentHashMap<>(); // name -> instance.properties
    private final List<Map<String, String>> serverPolls = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.NORMAL;

    public AdminStandIn(String user, String passwordHash, String serverConfig) throws IOException {
        this.user = user;
        this.passwordHash = passwordHash;
        this.serverConfig = serverConfig;
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/api/v1/config/", this::answer);
        http.start();
    }

    /** {@code host:port}, as {@code canal.admin.manager} names it. */
    public String address() {
        return "127.0.0.1:" + http.getAddress().getPort();
    }

    public void putInstance(String destination, String properties) {
        instances.put(destination, properties);
    }

    public void removeInstance(String destination) {
        instances.remove(destination);
    }

    public void serverConfig(String properties) {
        serverConfig = properties;
    }

    /** The password canal-admin now expects, as when an operator changes it there. */
    public void passwordHash(String newPasswordHash) {
        passwordHash = newPasswordHash;
    }

    public void mode(Mode newMode) {
        mode = newMode;
    }

    /** The query parameters of every server_polling request so far. */
    public List<Map<String, String>> serverPolls() {
        return serverPolls;
    }

    @Override
    public void close() {
        http.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (mode == Mode.HTTP_500) {
                exchange.sendResponseHeaders(500, -1);
                return;
            }
            if (mode == Mode.NOT_JSON) {
                send(exchange, "<html>maintenance</html>");
                return;
            }
            if (!user.equals(exchange.getRequestHeaders().getFirst("user"))
                    || !passwordHash.equalsIgnoreCase(exchange.getRequestHeaders().getFirst("passwd"))) {
                send(exchange, reply(50000, "auth :" + exchange.getRequestHeaders().getFirst("user") + " is failed",
                        null));
                return;
            }
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            String content;
            if (path.endsWith("/server_polling")) {
                serverPolls.add(query);
                content = serverConfig;
            } else if (path.endsWith("/instances_polling")) {
                content = String.join(",", instances.keySet().stream().sorted().toList());
            } else if (path.contains("/instance_polling/")) {
                content = instances.get(path.substring(path.lastIndexOf('/') + 1));
            } else {
                send(exchange, reply(50000, "no such endpoint " + path, null));
                return;
            }
            boolean unchanged = content == null || RemoteConfig.md5(content).equals(query.get("md5"));
            send(exchange, reply(20000, "", unchanged ? null : content));
        }
    }

    private static String reply(int code, String message, String content) throws IOException {
        ObjectNode root = JSON.createObjectNode().put("code", code).put("message", message);
        if (content == null) {
            root.putNull("data");
        } else {
            root.putObject("data").put("content", content).put("status", "1");
        }
        return JSON.writeValueAsString(root);
    }

    private static void send(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new HashMap<>();
        if (raw == null) {
            return values;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            values.put(key, value);
        }
        return values;
    }
}
