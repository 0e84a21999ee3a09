package io.hooklens.run.cluster;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.spi.tls.SslContextFactory;
import java.security.GeneralSecurityException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * The JDK's TLS for the embedded API server, in Netty's plain wrapper of a JDK context. Vert.x would build
 * Netty's server context instead, whose first use loads BouncyCastle's provider when it is on the class path
 * (fabric8's mock brings it) and parses a sample RSA key: most of a cold start's TLS cost, for nothing the
 * server uses.
 */
final class JdkServerTls extends JdkSSLEngineOptions {
  @Override
  public SslContextFactory sslContextFactory() {
    return new SslContextFactory() {
      private KeyManagerFactory keys;

      @Override
      public SslContextFactory keyMananagerFactory(KeyManagerFactory factory) {
        keys = factory;
        return this;
      }

      @Override
      public SslContext create() throws SSLException {
        try {
          SSLContext context = SSLContext.getInstance("TLS");
          context.init(keys.getKeyManagers(), null, null);
          return new JdkSslContext(context, false, ClientAuth.NONE);
        } catch (GeneralSecurityException e) {
          throw new SSLException(e);
        }
      }
    };
  }

  // Vert.x copies its options; a plain copy would be a JdkSSLEngineOptions that builds Netty's context again.
  @Override
  public JdkSSLEngineOptions copy() {
    return this;
  }
}
