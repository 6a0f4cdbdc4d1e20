import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkDiscovery,
  checkSsoIdentity,
  discoveryUrl,
  domainAllowed,
  isSecureOrLoopback,
  SsoConfigInputSchema,
} from '@/lib/sso';

const valid = {
  name: 'Acme ID',
  issuer: 'https://id.acme.test/realms/main/',
  clientId: 'mcp-chat',
  clientSecret: 's3cret',
  allowedDomains: ['Acme.test', '@corp.acme.test', 'acme.test'],
};

test('config: a valid provider is normalised (issuer without trailing slash, domains lower-case and unique)', () => {
  const parsed = SsoConfigInputSchema.parse(valid);
  assert.equal(parsed.issuer, 'https://id.acme.test/realms/main');
  assert.deepEqual(parsed.allowedDomains, ['acme.test', 'corp.acme.test']);
  assert.equal(
    discoveryUrl(parsed.issuer),
    'https://id.acme.test/realms/main/.well-known/openid-configuration',
  );
});

test('config: the issuer must be https, http only on a loopback host', () => {
  for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:8080/idp', 'http://[::1]:4000'])
    assert.equal(SsoConfigInputSchema.safeParse({ ...valid, issuer }).success, true, issuer);
  for (const issuer of [
    'http://id.acme.test',
    'http://10.0.0.5',
    'ftp://id.acme.test',
    'javascript:alert(1)',
    'https://user:pw@id.acme.test',
    'https://id.acme.test/#x',
    'not a url',
  ])
    assert.equal(SsoConfigInputSchema.safeParse({ ...valid, issuer }).success, false, issuer);
});

test('config: at least one well-formed email domain; unknown fields and empty names refused', () => {
  assert.equal(SsoConfigInputSchema.safeParse({ ...valid, allowedDomains: [] }).success, false);
  for (const d of ['acme', '*.acme.test', 'a b.test', 'user@acme.test', '-acme.test', 'acme.test/x'])
    assert.equal(SsoConfigInputSchema.safeParse({ ...valid, allowedDomains: [d] }).success, false, d);
  assert.equal(SsoConfigInputSchema.safeParse({ ...valid, name: '  ' }).success, false);
  assert.equal(SsoConfigInputSchema.safeParse({ ...valid, clientId: '' }).success, false);
  assert.equal(SsoConfigInputSchema.safeParse({ ...valid, role: 'admin' }).success, false);
  const { clientSecret: _secret, ...withoutSecret } = valid;
  assert.equal(SsoConfigInputSchema.safeParse(withoutSecret).success, true, 'the secret may be kept');
});

test('loopback rule also applies to endpoint URLs', () => {
  assert.equal(isSecureOrLoopback('https://idp.example/authorize'), true);
  assert.equal(isSecureOrLoopback('http://127.0.0.2:5000/token'), true);
  assert.equal(isSecureOrLoopback('http://idp.example/token'), false);
});

const doc = {
  issuer: 'https://id.acme.test',
  authorization_endpoint: 'https://id.acme.test/authorize',
  token_endpoint: 'https://id.acme.test/token',
  jwks_uri: 'https://id.acme.test/jwks',
  userinfo_endpoint: 'https://id.acme.test/userinfo',
  response_types_supported: ['code'],
  id_token_signing_alg_values_supported: ['RS256'],
  code_challenge_methods_supported: ['S256'],
};

test('discovery: a complete document for the same issuer passes', () => {
  assert.equal(checkDiscovery(doc, 'https://id.acme.test/').ok, true);
});

test('discovery: another issuer, insecure endpoints, no code flow, unsigned tokens or no S256 are refused', () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ ...doc, issuer: 'https://evil.test' }, /another issuer/],
    [{ ...doc, token_endpoint: 'http://id.acme.test/token' }, /token_endpoint/],
    [{ ...doc, jwks_uri: undefined }, /jwks_uri/],
    [{ ...doc, response_types_supported: ['token'] }, /authorization code/],
    [{ ...doc, id_token_signing_alg_values_supported: ['none'] }, /sign/],
    [{ ...doc, id_token_signing_alg_values_supported: [] }, /id_token_signing_alg_values_supported/],
    [{ ...doc, code_challenge_methods_supported: ['plain'] }, /PKCE/],
  ];
  for (const [d, reason] of bad) {
    const r = checkDiscovery(d, 'https://id.acme.test');
    assert.equal(r.ok, false, JSON.stringify(d));
    if (!r.ok) assert.match(r.reason, reason);
  }
  assert.equal(checkDiscovery('<html>', 'https://id.acme.test').ok, false);
});

test('identity: exact domain match only', () => {
  const allowed = ['acme.test'];
  assert.equal(domainAllowed('Ann@ACME.test', allowed), true);
  for (const email of ['ann@sub.acme.test', 'ann@acme.test.evil', 'ann@evilacme.test', 'acme.test', ''])
    assert.equal(domainAllowed(email, allowed), false, email);
});

test('identity: another domain and an unverified email are refused; an absent email_verified is accepted', () => {
  const allowed = ['acme.test'];
  assert.equal(
    checkSsoIdentity({ email: 'mallory@evil.test', profile: {} }, allowed)?.error,
    'domain_not_allowed',
  );
  assert.equal(
    checkSsoIdentity({ email: 'ann@acme.test', profile: { email_verified: false } }, allowed)?.error,
    'email_not_verified',
  );
  assert.equal(
    checkSsoIdentity({ email: 'ann@acme.test', profile: { email_verified: 'false' } }, allowed)?.error,
    'email_not_verified',
  );
  assert.equal(
    checkSsoIdentity({ email: 'ann@acme.test', profile: { email_verified: true } }, allowed),
    null,
  );
  assert.equal(checkSsoIdentity({ email: 'ann@acme.test', profile: {} }, allowed), null);
  assert.equal(checkSsoIdentity({ email: undefined, profile: {} }, allowed)?.error, 'domain_not_allowed');
});

test('identity: an email or account id (sub) holding NUL is refused, before the domain; a name holding it is not', () => {
  const allowed = ['acme.test'];
  for (const identity of [
    { email: 'ann\uFFFD@acme.test', profile: { email: 'ann\u0000@acme.test', sub: 'u1' } },
    { email: 'ann@acme.test', profile: { email: 'ann@acme.test', sub: 'u\u00001' } },
    { email: 'mallory\u0000@evil.test', profile: {} },
  ])
    assert.equal(checkSsoIdentity(identity, allowed)?.error, 'identity_not_usable', JSON.stringify(identity));
  assert.equal(
    checkSsoIdentity({ email: 'ann@acme.test', profile: { sub: 'u1', name: 'A\u0000nn' } }, allowed),
    null,
  );
});
