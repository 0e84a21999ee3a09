package io.hooklens.run.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.TlsWarmup;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * What admits a client to one run's API: a certificate authority of the run's own, the server certificate
 * for 127.0.0.1 and localhost it signs, and a bearer token of 256 random bits. All are made in memory when
 * the cluster starts; the CA's key stays there and signs nothing else. The embedded API keeps the server's key
 * in memory too; a control plane's kube-apiserver reads it from a file of the run's private folder.
 *
 * <p>The JDK makes the keys and the signatures; the certificates around them are written here in DER.
 * BouncyCastle, which fabric8's mock brings, could write them, but initialising it costs a cold start 100
 * to 300 ms (docs/performance.md).
 */
final class ApiCredentials {
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
  private static final String COMMON_NAME = "2.5.4.3";
  private static final String SUBJECT_KEY_ID = "2.5.29.14";
  private static final String KEY_USAGE = "2.5.29.15";
  private static final String SUBJECT_ALT_NAME = "2.5.29.17";
  private static final String BASIC_CONSTRAINTS = "2.5.29.19";
  private static final String AUTHORITY_KEY_ID = "2.5.29.35";
  private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  // The keys go with the process, so the validity bounds no exposure; a year outlasts any held run.
  private static final Duration VALIDITY = Duration.ofDays(365);
  // An hour back, for a client whose clock is a little behind this one.
  private static final Duration SKEW = Duration.ofHours(1);
  private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")
      .withZone(ZoneOffset.UTC);
  // JKS: the stores live in memory only, where PKCS12's key encryption would only cost the start time.
  private static final String STORE = "JKS";
  private static final char[] STORE_PASSWORD = "in-memory".toCharArray();
  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  private static final int BOOLEAN = 0x01;
  private static final int INTEGER = 0x02;
  private static final int BIT_STRING = 0x03;
  private static final int OCTET_STRING = 0x04;
  private static final int OID = 0x06;
  private static final int UTF8_STRING = 0x0c;
  private static final int UTC_TIME_TAG = 0x17;
  private static final int SEQUENCE = 0x30;
  private static final int SET = 0x31;
  private static final int VERSION = 0xa0;
  private static final int EXTENSIONS = 0xa3;
  private static final int KEY_ID = 0x80;
  private static final int DNS_NAME = 0x82;
  private static final int IP_ADDRESS = 0x87;

  private final X509Certificate ca;
  private final X509Certificate server;
  private final PrivateKey serverKey;
  private final KeyManagerFactory serverKeys;
  private final String token;
  private final byte[] authorization;

  private ApiCredentials(X509Certificate ca, X509Certificate server, PrivateKey serverKey,
      KeyManagerFactory serverKeys, String token) {
    this.ca = ca;
    this.server = server;
    this.serverKey = serverKey;
    this.serverKeys = serverKeys;
    this.token = token;
    this.authorization = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }

  static ApiCredentials generate() {
    try {
      SecureRandom random = new SecureRandom();
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), random);
      KeyPair caKeys = generator.generateKeyPair();
      KeyPair serverKeys = generator.generateKeyPair();
      Instant now = Instant.now();
      byte[] validity = sequence(time(now.minus(SKEW)), time(now.plus(VALIDITY)));
      byte[] caName = name("hooklens run CA");
      // RFC 7093's fourth method; strict verifiers (OpenSSL's x509_strict, Python's default) want the key ids.
      byte[] caKeyId = MessageDigest.getInstance("SHA-256").digest(caKeys.getPublic().getEncoded());
      X509Certificate ca = certificate(random, caName, validity, caName, caKeys.getPublic(), caKeys.getPrivate(),
          extension(BASIC_CONSTRAINTS, true, sequence(der(BOOLEAN, new byte[] {(byte) 0xff}))),
          // keyCertSign and cRLSign
          extension(KEY_USAGE, true, der(BIT_STRING, new byte[] {1, 0x06})),
          extension(SUBJECT_KEY_ID, false, der(OCTET_STRING, caKeyId)));
      X509Certificate server = certificate(random, caName, validity, name("hooklens embedded API"),
          serverKeys.getPublic(), caKeys.getPrivate(),
          extension(AUTHORITY_KEY_ID, false, sequence(der(KEY_ID, caKeyId))),
          // digitalSignature
          extension(KEY_USAGE, true, der(BIT_STRING, new byte[] {7, (byte) 0x80})),
          extension(EXTENDED_KEY_USAGE, false, sequence(oid(SERVER_AUTH))),
          extension(SUBJECT_ALT_NAME, false, sequence(der(IP_ADDRESS, new byte[] {127, 0, 0, 1}),
              der(DNS_NAME, "localhost".getBytes(StandardCharsets.US_ASCII)))));
      KeyStore keys = emptyStore();
      keys.setKeyEntry("api", serverKeys.getPrivate(), STORE_PASSWORD, new X509Certificate[] {server, ca});
      KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, STORE_PASSWORD);
      byte[] secret = new byte[32];
      random.nextBytes(secret);
      return new ApiCredentials(ca, server, serverKeys.getPrivate(), keyManagers, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot make the embedded API's certificates", e);
    }
  }

  /** An X.509 v3 certificate (RFC 5280), signed with ECDSA, read back by the JDK, which checks its encoding. */
  private static X509Certificate certificate(SecureRandom random, byte[] issuer, byte[] validity, byte[] subject,
      PublicKey subjectKey, PrivateKey issuerKey, byte[]... extensions) throws GeneralSecurityException {
    byte[] algorithm = sequence(oid(ECDSA_WITH_SHA256));
    byte[] tbs = sequence(der(VERSION, der(INTEGER, new byte[] {2})),
        der(INTEGER, new BigInteger(64, random).setBit(63).toByteArray()), algorithm, issuer, validity, subject,
        subjectKey.getEncoded(), der(EXTENSIONS, sequence(extensions)));
    Signature signature = Signature.getInstance(SIGNATURE);
    signature.initSign(issuerKey);
    signature.update(tbs);
    byte[] signed = signature.sign();
    byte[] bits = new byte[signed.length + 1];
    System.arraycopy(signed, 0, bits, 1, signed.length);
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(sequence(tbs, algorithm, der(BIT_STRING, bits))));
  }

  private static byte[] name(String commonName) {
    return sequence(der(SET, sequence(oid(COMMON_NAME), der(UTF8_STRING,
        commonName.getBytes(StandardCharsets.UTF_8)))));
  }

  private static byte[] time(Instant instant) {
    return der(UTC_TIME_TAG, UTC_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    byte[] id = oid(oid);
    byte[] octets = der(OCTET_STRING, value);
    return critical ? sequence(id, der(BOOLEAN, new byte[] {(byte) 0xff}), octets) : sequence(id, octets);
  }

  private static byte[] oid(String dotted) {
    String[] arcs = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(40 * Integer.parseInt(arcs[0]) + Integer.parseInt(arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      long arc = Long.parseLong(arcs[i]);
      // Base 128, most significant group first, every group but the last with its high bit set.
      for (int shift = 7 * ((63 - Long.numberOfLeadingZeros(arc | 1)) / 7); shift > 0; shift -= 7) {
        out.write((int) (arc >> shift) & 0x7f | 0x80);
      }
      out.write((int) arc & 0x7f);
    }
    return der(OID, out.toByteArray());
  }

  private static byte[] sequence(byte[]... parts) {
    return der(SEQUENCE, parts);
  }

  /** A DER tag-length-value: the length in one byte below 128, else in as few bytes as it needs. */
  private static byte[] der(int tag, byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      content.writeBytes(part);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.size();
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (39 - Integer.numberOfLeadingZeros(length)) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >> (8 * i));
      }
    }
    out.writeBytes(content.toByteArray());
    return out.toByteArray();
  }

  private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance(STORE);
    store.load(null, null);
    return store;
  }

  /** The CA certificate in PEM, as a kubeconfig's {@code certificate-authority-data} holds it (base64 of this). */
  String caPem() {
    return certificatePem(ca);
  }

  /** The server certificate in PEM, for a server that reads it from a file (kube-apiserver). */
  String serverCertificatePem() {
    return certificatePem(server);
  }

  /** The server's private key in PEM (PKCS #8), for a server that reads it from a file. */
  String serverKeyPem() {
    return privateKeyPem(serverKey);
  }

  static String privateKeyPem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  /** A public key in PEM (X.509 SubjectPublicKeyInfo), which kube-apiserver verifies service-account tokens with. */
  static String publicKeyPem(PublicKey key) {
    return pem("PUBLIC KEY", key.getEncoded());
  }

  private static String certificatePem(X509Certificate certificate) {
    try {
      return pem("CERTIFICATE", certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  /**
   * A client of the API at {@code url} that trusts this CA alone and sends this token. fabric8 adds the CA data
   * to the JDK's authorities; the HTTP client is then told to trust the run's CA alone. No TLS warm-up: it would
   * only do the first handshake's work earlier.
   */
  KubernetesClient client(String url, String namespace) {
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).withNamespace(namespace)
        .withCaCertData(caData()).withOauthToken(token).withHttp2Disable(true).withRequestTimeout(10_000).build();
    VertxHttpClientFactory http = new VertxHttpClientFactory();
    http.setTlsWarmup(TlsWarmup.OFF);
    return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(http)
        .withHttpClientBuilderConsumer(builder -> builder.sslContext(null, trustOnlyCa())).build();
  }

  /**
   * Writes a kubeconfig whose only context is the API at {@code url} with this token. The file is new and
   * readable by its owner only from its creation: its token is all another local user would need.
   */
  Path writeKubeconfig(Path file, String url, String namespace) throws IOException {
    String text = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: hooklens
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: hooklens
          user:
            token: %s
        contexts:
        - name: hooklens
          context:
            cluster: hooklens
            user: hooklens
            namespace: %s
        current-context: hooklens
        """.formatted(url, caData(), token, namespace);
    return writePrivate(file, text);
  }

  /** Writes a new file readable by its owner only from its creation. */
  static Path writePrivate(Path file, String text) throws IOException {
    Files.createFile(file, OWNER_ONLY);
    Files.writeString(file, text);
    return file;
  }

  private String caData() {
    return Base64.getEncoder().encodeToString(caPem().getBytes(StandardCharsets.US_ASCII));
  }

  String token() {
    return token;
  }

  KeyManagerFactory serverKeys() {
    return serverKeys;
  }

  /** Trust managers that trust this CA and nothing else, not even the JDK's own authorities. */
  TrustManager[] trustOnlyCa() {
    try {
      KeyStore trusted = emptyStore();
      trusted.setCertificateEntry("ca", ca);
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trusted);
      return factory.getTrustManagers();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether an {@code Authorization} header carries this run's token; in constant time, so it leaks no prefix. */
  boolean admits(String authorizationHeader) {
    return authorizationHeader != null
        && MessageDigest.isEqual(authorizationHeader.getBytes(StandardCharsets.UTF_8), authorization);
  }
}
