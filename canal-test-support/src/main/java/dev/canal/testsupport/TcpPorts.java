package dev.canal.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Local TCP ports for servers a test starts: one that is free now, and whether one is listening. */
public final class TcpPorts {

    private TcpPorts() {
    }

    /** A port nothing listens on right now (on any interface), for a server the test is about to start. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }

    /** Whether a server accepts connections on the loopback address at {@code port}. */
    public static boolean isListening(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
