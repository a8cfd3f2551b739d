import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local as its own main class does, except that its HTTP connector listens on one
 * address (the first argument) instead of every interface. The jar has no option for this: it
 * builds its Jetty server from a port alone, which binds the wildcard address, and then anyone who
 * can reach the machine reads and writes the local table without a key. So the server is built
 * from DynamoDB Local's own options (the remaining arguments), its connector is given the host
 * before it starts, and only then is it started.
 *
 * Telemetry is not set up here (the jar's main does that), so DynamoDB Local sends none, as with
 * -disableTelemetry.
 *
 * With -Dpromo.exitWithStdin=true it also exits once its standard input ends: the local runtime
 * holds the other end of that pipe, so when the runtime dies without stopping it (kill -9, a
 * crash), the engine follows instead of living on, holding the data folder's database.
 *
 * infra/local/engines.ts compiles this file once (with the jar on the class path) and caches the
 * class under node_modules/.cache; see docs/decisions.md "DynamoDB Local on the loopback interface".
 */
public final class LoopbackDynamoDbLocal {
  private LoopbackDynamoDbLocal() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) fail("usage: LoopbackDynamoDbLocal <host> [DynamoDB Local options]");
    String host = args[0];
    if (Boolean.getBoolean("promo.exitWithStdin")) exitWhenStdinEnds();
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    for (Connector connector : jettyServerOf(proxy).getConnectors()) {
      // Anything but the one plain connector seen so far would need its own look, not a guess.
      if (!(connector instanceof ServerConnector network)) {
        fail("unexpected connector " + connector.getClass().getName() + "; cannot bind it to " + host);
        return;
      }
      network.setHost(host);
    }
    proxy.start();
  }

  /** Exits once standard input reaches its end (the parent process closed it, or died). */
  private static void exitWhenStdinEnds() {
    Thread watcher = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // Nothing is ever written; only the end matters.
        }
      } catch (java.io.IOException e) {
        // A broken pipe ends the parent's hold the same way.
      }
      System.exit(0);
    }, "exit-with-stdin");
    watcher.setDaemon(true);
    watcher.start();
  }

  /** The Jetty server DynamoDB Local keeps in a private field; a jar that moved it fails the start loudly. */
  private static Server jettyServerOf(DynamoDBProxyServer proxy) {
    try {
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      Server server = (Server) field.get(proxy);
      if (server.getConnectors().length == 0) fail("DynamoDB Local's Jetty server has no connector to bind");
      return server;
    } catch (ReflectiveOperationException | ClassCastException e) {
      fail("this DynamoDB Local version no longer keeps its Jetty server in DynamoDBProxyServer.server (" + e + "); update infra/local/LoopbackDynamoDbLocal.java");
      return null;
    }
  }

  private static void fail(String message) {
    System.err.println("Cannot bind DynamoDB Local to one address: " + message);
    System.exit(1);
  }
}
