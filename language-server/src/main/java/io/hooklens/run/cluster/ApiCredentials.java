package io.hooklens.run.cluster;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * What admits a client to one run's API: a certificate authority of the run's own, the server certificate
 * for 127.0.0.1 and localhost it signs, and a bearer token of 256 random bits. All are made in memory when
 * the cluster starts and the private keys stay there; the CA signs nothing else.
 */
final class ApiCredentials {
  private static final String SIGNATURE = "SHA256withECDSA";
  // The keys go with the process, so the validity bounds no exposure; a year outlasts any held run.
  private static final Duration VALIDITY = Duration.ofDays(365);
  // JKS: the stores live in memory only, where PKCS12's key encryption would only cost the start time.
  private static final String STORE = "JKS";
  private static final char[] STORE_PASSWORD = "in-memory".toCharArray();

  private final X509Certificate ca;
  private final KeyManagerFactory serverKeys;
  private final String token;
  private final byte[] authorization;

  private ApiCredentials(X509Certificate ca, KeyManagerFactory serverKeys, String token) {
    this.ca = ca;
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
      X500Name caName = new X500Name("CN=hooklens run CA");
      X509Certificate ca = sign(new JcaX509v3CertificateBuilder(caName, serial(random), from(now), until(now), caName,
          caKeys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)),
          caKeys.getPrivate());
      X509Certificate server = sign(new JcaX509v3CertificateBuilder(caName, serial(random), from(now), until(now),
          new X500Name("CN=hooklens embedded API"), serverKeys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")})),
          caKeys.getPrivate());
      KeyStore keys = emptyStore();
      keys.setKeyEntry("api", serverKeys.getPrivate(), STORE_PASSWORD, new X509Certificate[] {server, ca});
      KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, STORE_PASSWORD);
      byte[] secret = new byte[32];
      random.nextBytes(secret);
      return new ApiCredentials(ca, keyManagers, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make the embedded API's certificates", e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder certificate, PrivateKey issuer)
      throws IOException, GeneralSecurityException, OperatorCreationException {
    return new JcaX509CertificateConverter().getCertificate(certificate.build(
        new JcaContentSignerBuilder(SIGNATURE).build(issuer)));
  }

  private static BigInteger serial(SecureRandom random) {
    return new BigInteger(64, random);
  }

  // An hour back, for a client whose clock is a little behind this one.
  private static Date from(Instant now) {
    return Date.from(now.minus(Duration.ofHours(1)));
  }

  private static Date until(Instant now) {
    return Date.from(now.plus(VALIDITY));
  }

  private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance(STORE);
    store.load(null, null);
    return store;
  }

  /** The CA certificate in PEM, as a kubeconfig's {@code certificate-authority-data} holds it (base64 of this). */
  String caPem() {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(ca.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
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
