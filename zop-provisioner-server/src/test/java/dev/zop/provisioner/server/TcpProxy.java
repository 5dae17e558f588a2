package dev.zop.provisioner.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on loopback in front of a server (PostgreSQL, here) that a test cuts and restores: cut closes every
 * connection through it and refuses new ones, as a database that went away does; restore lets connections through
 * again, to the same server with its data intact.
 */
final class TcpProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final String targetHost;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "tcp-proxy");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean cut;

  TcpProxy(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Closes every connection through the proxy and refuses new ones until {@link #restore()}. */
  void cut() {
    cut = true;
    for (Socket socket : open) {
      close(socket);
    }
  }

  void restore() {
    cut = false;
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException closed) {
        return;
      }
      if (cut) {
        close(client);
        continue;
      }
      threads.execute(() -> connect(client));
    }
  }

  private void connect(Socket client) {
    Socket server;
    try {
      server = new Socket(targetHost, targetPort);
    } catch (IOException e) {
      close(client);
      return;
    }
    open.add(client);
    open.add(server);
    threads.execute(() -> pipe(client, server));
    threads.execute(() -> pipe(server, client));
  }

  private void pipe(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException closed) {
      // one side went away: the other goes too
    } finally {
      close(from);
      close(to);
    }
  }

  private void close(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    cut();
    threads.shutdownNow();
  }
}
