package dev.canal.server.ha;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay between one server's ZooKeeper client and the ZooKeeper server that can cut the network the
 * way a partition does: {@link #blackHole()} keeps the connections open but drops every byte both ways (the
 * client notices only by its read timeout, the server expires the session after the session timeout),
 * {@link #dropConnections()} resets them (noticed at once, the session survives a quick reconnect),
 * {@link #heal()} resets and forwards again.
 */
final class ZooKeeperPartition implements AutoCloseable {

    private static final int BUFFER_BYTES = 8192;

    private final int upstreamPort;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean blackHoled;

    ZooKeeperPartition(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "zk-partition-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    void blackHole() {
        blackHoled = true;
    }

    void dropConnections() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    void heal() {
        dropConnections();
        blackHoled = false;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        dropConnections();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return;
            }
            try {
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                sockets.add(client);
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException zooKeeperDown) {
                closeQuietly(client); // refused, as ZooKeeper itself would; the next connection tries again
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (!blackHoled) {
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            } catch (IOException closed) {
                // one side closed or was reset: close the other too
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "zk-partition-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException alreadyClosed) {
            // nothing left to release
        }
    }
}
