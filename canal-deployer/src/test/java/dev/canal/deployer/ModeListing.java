package dev.canal.deployer;

import dev.canal.connector.mq.MqModes;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What listing the MQ modes loads: {@link MqModes#names()} called in a class loader of its own over this JVM's class
 * path, which records every class it defines. A broker's client classes must not be among them: every server lists
 * the modes, and only the server in that broker's mode may load its client.
 */
final class ModeListing {

    private ModeListing() {
    }

    /** The names of the classes loaded to list the modes, and the modes found. */
    record Result(List<String> loadedClasses, List<?> modes) {
    }

    static Result listModes() throws Exception {
        try (RecordingLoader loader = new RecordingLoader(classPath())) {
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader); // ServiceLoader looks in the context class loader
            try {
                Object names = Class.forName(MqModes.class.getName(), true, loader).getMethod("names").invoke(null);
                return new Result(List.copyOf(loader.defined), (List<?>) names);
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
    }

    private static URL[] classPath() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        return urls.toArray(URL[]::new);
    }

    /** Loads the class path itself (the platform's classes aside) and records what it defines. */
    private static final class RecordingLoader extends URLClassLoader {

        final List<String> defined = Collections.synchronizedList(new ArrayList<>());

        RecordingLoader(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Class<?> type = super.findClass(name);
            defined.add(name);
            return type;
        }
    }
}
