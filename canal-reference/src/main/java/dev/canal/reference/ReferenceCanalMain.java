package dev.canal.reference;

import com.alibaba.otter.canal.server.embedded.CanalServerWithEmbedded;
import com.alibaba.otter.canal.server.netty.CanalServerWithNetty;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Runs the real Canal 1.1.7 server: {@link CanalServerWithEmbedded} with one instance per configured
 * destination (see {@link ReferenceConfig}), each started as the deployer starts them at boot, behind
 * {@link CanalServerWithNetty} on {@code canal.port} of 127.0.0.1. Prints {@value #READY}PORT on standard
 * output once the port listens, then serves until its standard input closes or it is terminated.
 *
 * <pre>java -cp canal-reference/target/canal-reference.jar:canal-reference/target/lib/* \
 *      dev.canal.reference.ReferenceCanalMain reference.properties</pre>
 */
public final class ReferenceCanalMain {

    static final String READY = "READY ";

    private ReferenceCanalMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ReferenceCanalMain FILE.properties");
            System.exit(2);
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        ReferenceConfig config = ReferenceConfig.from(p);

        CanalServerWithEmbedded embedded = CanalServerWithEmbedded.instance();
        embedded.setCanalInstanceGenerator(new ReferenceInstances(config));
        embedded.start();
        for (ReferenceConfig.Instance instance : config.instances()) {
            embedded.start(instance.destination());
        }
        CanalServerWithNetty netty = CanalServerWithNetty.instance();
        netty.setIp("127.0.0.1");
        netty.setPort(config.port());
        netty.setEmbeddedServer(embedded);
        netty.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(netty, embedded), "reference-canal-stop"));

        System.out.println(READY + config.port());
        System.out.flush();
        while (System.in.read() >= 0) {
            // whoever started us closes our input when done
        }
        System.exit(0); // the shutdown hook stops the servers
    }

    private static void stop(CanalServerWithNetty netty, CanalServerWithEmbedded embedded) {
        if (netty.isStart()) {
            netty.stop();
        }
        if (embedded.isStart()) {
            embedded.stop();
        }
    }
}
