import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AppCallFacts, appCallDecision } from './call-gate';
import {
  allowAttribute,
  appContentSecurityPolicy,
  cleanCsp,
  cleanOrigin,
  grantedPermissions,
  toolAppUri,
  toolVisibility,
} from './sandbox-policy';

const directives = (csp: string) =>
  new Map(
    csp.split('; ').map((d) => {
      const [name = '', ...values] = d.split(' ');
      return [name, values];
    }),
  );

test('an app that declares nothing may load nothing from the network', () => {
  const d = directives(appContentSecurityPolicy(cleanCsp(undefined)));
  assert.deepEqual(d.get('default-src'), ["'none'"]);
  assert.deepEqual(d.get('connect-src'), ["'none'"]);
  assert.deepEqual(d.get('frame-src'), ["'none'"]);
  assert.deepEqual(d.get('base-uri'), ["'none'"]);
  assert.deepEqual(d.get('script-src'), ["'unsafe-inline'"]);
  assert.deepEqual(d.get('img-src'), ['data:', 'blob:']);
  assert.deepEqual(d.get('form-action'), ["'none'"]);
  assert.deepEqual(d.get('frame-ancestors'), ["'self'"]);
  // Never the host's origin, never eval.
  assert.ok(!d.get('script-src')?.includes("'self'"));
  assert.ok(!d.get('connect-src')?.includes("'self'"));
  assert.ok(!appContentSecurityPolicy(cleanCsp(undefined)).includes('unsafe-eval'));
  assert.deepEqual(d.get('sandbox'), ['allow-scripts', 'allow-forms']);
});

test('declared domains go to their own directives only', () => {
  const d = directives(
    appContentSecurityPolicy(
      cleanCsp({
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://base.example.com'],
      }),
    ),
  );
  assert.deepEqual(d.get('connect-src'), ['https://api.example.com', 'wss://live.example.com']);
  assert.deepEqual(d.get('script-src'), ["'unsafe-inline'", 'https://*.cdn.example.com']);
  assert.deepEqual(d.get('style-src'), ["'unsafe-inline'", 'https://*.cdn.example.com']);
  assert.deepEqual(d.get('img-src'), ['data:', 'blob:', 'https://*.cdn.example.com']);
  assert.deepEqual(d.get('frame-src'), ['https://www.youtube.com']);
  assert.deepEqual(d.get('base-uri'), ['https://base.example.com']);
});

test('declared values that would widen or break the policy are dropped', () => {
  for (const bad of [
    '*',
    'https://*',
    'https://*.com',
    'wss://*.io:443',
    'https://*.*.example.com',
    'data:',
    'blob:',
    "'unsafe-eval'",
    "'self'",
    'https://a.example.com; script-src *',
    'https://a.example.com https://b.example.com',
    'http://evil.example.com',
    'javascript:alert(1)',
    'https://a.example.com/path',
    'ftp://a.example.com',
    42,
    null,
  ])
    assert.equal(cleanOrigin(bad), null, String(bad));
  assert.equal(cleanOrigin('HTTPS://Api.Example.com/'), 'https://api.example.com');
  assert.equal(cleanOrigin('http://localhost:8080'), 'http://localhost:8080');
  assert.equal(cleanOrigin('http://127.0.0.1'), 'http://127.0.0.1');
  assert.equal(cleanOrigin('https://*.example.com'), 'https://*.example.com');
  assert.equal(cleanOrigin('https://*.cdn.example.com:8443'), 'https://*.cdn.example.com:8443');
  assert.equal(cleanOrigin('https://localhost'), 'https://localhost');
  const csp = cleanCsp({
    connectDomains: ["'unsafe-eval'", 'https://ok.example.com', 'https://ok.example.com'],
    other: ['x'],
  });
  assert.deepEqual(csp, {
    connectDomains: ['https://ok.example.com'],
    resourceDomains: [],
    frameDomains: [],
    baseUriDomains: [],
  });
  assert.deepEqual(cleanCsp({ connectDomains: 'https://a.example.com' }).connectDomains, []);
  assert.equal(
    cleanCsp({ connectDomains: Array.from({ length: 50 }, (_, i) => `https://h${i}.example.com`) })
      .connectDomains.length,
    20,
  );
});

test('permissions: only those declared that the admin allows', () => {
  assert.deepEqual(grantedPermissions({ camera: {}, clipboardWrite: {} }, []), []);
  assert.deepEqual(grantedPermissions({ camera: {}, clipboardWrite: {} }, ['clipboardWrite', 'microphone']), [
    'clipboardWrite',
  ]);
  assert.deepEqual(grantedPermissions({ usb: {}, camera: {} }, ['camera']), ['camera']);
  assert.deepEqual(grantedPermissions(undefined, ['camera']), []);
  assert.equal(allowAttribute(['camera', 'clipboardWrite']), 'camera *; clipboard-write *');
  assert.equal(allowAttribute([]), '');
});

test('a tool names its app with a ui:// resource, and may hide itself from the model or the app', () => {
  assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'ui://s/app.html' } } }), 'ui://s/app.html');
  assert.equal(toolAppUri({ _meta: { 'ui/resourceUri': 'ui://s/old.html' } }), 'ui://s/old.html');
  assert.equal(
    toolAppUri({ _meta: { ui: { resourceUri: 'https://evil.example.com/app.html' } } }),
    undefined,
  );
  assert.equal(toolAppUri({}), undefined);
  assert.deepEqual(toolVisibility({}), { model: true, app: true });
  assert.deepEqual(toolVisibility({ _meta: { ui: { visibility: ['app'] } } }), { model: false, app: true });
  assert.deepEqual(toolVisibility({ _meta: { ui: { visibility: ['model'] } } }), { model: true, app: false });
});

const facts: AppCallFacts = {
  appsEnabled: true,
  serverInConversation: true,
  toolExists: true,
  enabledByAdmin: true,
  enabledInConversation: true,
  visibleToApps: true,
  approval: 'auto',
  changed: false,
  allowedInConversation: false,
};

test('app calls: the same gates as the model', () => {
  assert.deepEqual(appCallDecision('s', 't', facts), { kind: 'run' });
  assert.deepEqual(appCallDecision('s', 't', { ...facts, approval: 'ask' }), { kind: 'ask' });
  assert.deepEqual(appCallDecision('s', 't', { ...facts, approval: 'ask', allowedInConversation: true }), {
    kind: 'run',
  });
  // A changed definition asks even when allowed before.
  assert.deepEqual(appCallDecision('s', 't', { ...facts, changed: true, allowedInConversation: true }), {
    kind: 'ask',
  });
  const refused = (f: Partial<AppCallFacts>) => {
    const d = appCallDecision('s', 't', { ...facts, ...f });
    return d.kind === 'refuse' ? d.code : d.kind;
  };
  assert.equal(refused({ toolExists: false }), 'not_found');
  assert.equal(refused({ serverInConversation: false }), 'not_found');
  assert.equal(refused({ appsEnabled: false }), 'forbidden');
  assert.equal(refused({ enabledByAdmin: false }), 'forbidden');
  assert.equal(refused({ enabledInConversation: false }), 'forbidden');
  assert.equal(refused({ visibleToApps: false }), 'forbidden');
});
