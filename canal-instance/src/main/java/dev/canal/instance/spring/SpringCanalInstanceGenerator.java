package dev.canal.instance.spring;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.protocol.config.ConfigValueException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.context.support.PropertySourcesPlaceholderConfigurer;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * Builds a destination's instance from Spring XML (Canal's SpringCanalInstanceGenerator):
 * the XML named by {@code canal.instance.{destination}.spring.xml}, else {@code canal.instance.global.spring.xml},
 * else {@code classpath:spring/file-instance.xml}, with {@code ${...}} placeholders resolved from canal.properties
 * and {@code {confDir}/{destination}/instance.properties} by {@link InstanceProperties}'s rules. The XML sees the
 * merged, resolved values as the {@code Properties} bean {@value #PROPERTIES_BEAN} (for the typed config
 * records) and must define the instance as the bean {@value #INSTANCE_BEAN}. It also sees the daemon's ZooKeeper
 * client as the {@link SharedZooKeeper} bean {@value #SHARED_ZOOKEEPER_BEAN} ({@link #withZooKeeper}; none by
 * default), which default-instance.xml uses instead of a client per destination.
 *
 * <p>In canal-admin's manager mode the destination's own properties come from an {@link InstanceSource} instead
 * of the file ({@link #withInstanceSource}).
 *
 * <p>Every singleton is created when the instance is generated, so invalid values fail here, before anything
 * starts, with an {@link InstanceConfigException} naming the destination, the key and the file it came from.
 */
public final class SpringCanalInstanceGenerator {

    public static final String PROPERTIES_BEAN = "instanceProperties";
    public static final String INSTANCE_BEAN = "instance";
    public static final String SHARED_ZOOKEEPER_BEAN = "sharedZooKeeper";
    public static final String GLOBAL_SPRING_XML = "canal.instance.global.spring.xml";
    public static final String DEFAULT_SPRING_XML = "classpath:spring/file-instance.xml";
    public static final String INSTANCE_FILE = "instance.properties";

    private final Source canalProperties;
    private final Path confDir;
    private final List<String> additionalXml;
    private final InstanceSource instanceSource;
    private final SharedZooKeeper zooKeeper;

    public SpringCanalInstanceGenerator(Source canalProperties, Path confDir) {
        this(canalProperties, confDir, List.of(), null, SharedZooKeeper.NONE);
    }

    private SpringCanalInstanceGenerator(Source canalProperties, Path confDir, List<String> additionalXml,
            InstanceSource instanceSource, SharedZooKeeper zooKeeper) {
        this.canalProperties = Objects.requireNonNull(canalProperties, "canalProperties");
        this.confDir = Objects.requireNonNull(confDir, "confDir");
        this.additionalXml = List.copyOf(additionalXml);
        this.instanceSource = instanceSource != null ? instanceSource : this::loadInstanceFile;
        this.zooKeeper = Objects.requireNonNull(zooKeeper, "zooKeeper");
    }

    /** A generator that takes each destination's own properties from {@code source} instead of its file. */
    public SpringCanalInstanceGenerator withInstanceSource(InstanceSource source) {
        return new SpringCanalInstanceGenerator(canalProperties, confDir, additionalXml,
                Objects.requireNonNull(source, "source"), zooKeeper);
    }

    /** A generator that also loads these XML resources after the instance's own, so their beans replace its beans. */
    public SpringCanalInstanceGenerator withAdditionalXml(String... resources) {
        List<String> all = new ArrayList<>(additionalXml);
        all.addAll(List.of(resources));
        return new SpringCanalInstanceGenerator(canalProperties, confDir, all, instanceSource, zooKeeper);
    }

    /** A generator whose instances use the daemon's ZooKeeper client instead of connecting one each. */
    public SpringCanalInstanceGenerator withZooKeeper(SharedZooKeeper shared) {
        return new SpringCanalInstanceGenerator(canalProperties, confDir, additionalXml, instanceSource, shared);
    }

    public static Path instanceFile(Path confDir, String destination) {
        return confDir.resolve(destination).resolve(INSTANCE_FILE);
    }

    /** @throws InstanceConfigException when the destination's files or values are missing or invalid */
    public CanalInstance generate(String destination) {
        return generate(properties(destination));
    }

    /**
     * The instance of values read before ({@link #properties}), so a deploy reads the destination's file once.
     *
     * @throws InstanceConfigException when a value is missing or invalid
     */
    public CanalInstance generate(InstanceProperties properties) {
        return new SpringCanalInstance(properties.destination(), () -> build(properties));
    }

    /**
     * The resolved values the destination's instance would see, without building it: its file (or canal-admin's
     * configuration) read once.
     *
     * @throws InstanceConfigException when the destination's file is missing or cannot be read
     */
    public InstanceProperties properties(String destination) {
        return InstanceProperties.ofProcess(destination, canalProperties, instanceSource.load(destination));
    }

    private Source loadInstanceFile(String destination) {
        Path file = instanceFile(confDir, destination);
        if (!Files.isRegularFile(file)) {
            throw new InstanceConfigException(destination, "missing " + file, null);
        }
        Properties values = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            values.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new InstanceConfigException(destination, "cannot read " + file + ": " + e.getMessage(), e);
        }
        return new Source(file.toString(), values);
    }

    private SpringCanalInstance.Built build(InstanceProperties properties) {
        String destination = properties.destination();
        String xml = springXml(properties);
        GenericXmlApplicationContext context = new GenericXmlApplicationContext();
        context.setDisplayName("canal instance " + destination);
        try {
            context.getBeanFactory().registerSingleton(PROPERTIES_BEAN, properties.effective());
            context.getBeanFactory().registerSingleton(SHARED_ZOOKEEPER_BEAN, zooKeeper);
            context.addBeanFactoryPostProcessor(placeholderConfigurer(properties));
            List<String> resources = new ArrayList<>();
            resources.add(xml);
            resources.addAll(additionalXml);
            context.load(resources.toArray(String[]::new));
            context.refresh();
            FailoverHistoryWarning.logIfUnshared(destination, context, properties);
            return new SpringCanalInstance.Built(context, context.getBean(INSTANCE_BEAN, CanalInstance.class));
        } catch (RuntimeException e) {
            context.close();
            throw new InstanceConfigException(destination, describe(e, properties, xml), e);
        }
    }

    private static String springXml(InstanceProperties properties) {
        String own = properties.get("canal.instance." + properties.destination() + ".spring.xml");
        if (own != null) {
            return own;
        }
        String global = properties.get(GLOBAL_SPRING_XML);
        return global != null ? global : DEFAULT_SPRING_XML;
    }

    /** Placeholders resolve through {@link InstanceProperties#raw}; Spring resolves nested ones and defaults. */
    private static PropertySourcesPlaceholderConfigurer placeholderConfigurer(InstanceProperties properties) {
        MutablePropertySources sources = new MutablePropertySources();
        sources.addLast(new PropertySource<>("canal instance " + properties.destination(), properties) {
            @Override
            public Object getProperty(String name) {
                return getSource().raw(name);
            }
        });
        PropertySourcesPlaceholderConfigurer configurer = new PropertySourcesPlaceholderConfigurer();
        configurer.setPropertySources(sources);
        configurer.setTrimValues(true);
        configurer.setIgnoreUnresolvablePlaceholders(false);
        return configurer;
    }

    /**
     * A configuration error of a config record or component, with the file its key came from; else the message of
     * the first cause that is not Spring's own wrapping (bean creation layers).
     */
    private static String describe(RuntimeException e, InstanceProperties properties, String xml) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConfigValueException invalid) {
                return invalid.getMessage() + " (key " + invalid.key() + ", " + properties.originOf(invalid.key()) + ")";
            }
        }
        Throwable cause = e;
        while (cause.getClass().getName().startsWith("org.springframework.") && cause.getCause() != null
                && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return "cannot build the instance from " + xml + ": " + cause;
    }
}
