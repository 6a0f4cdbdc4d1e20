import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeUserAgent } from './user-agent';

test('names the browser and system of common user agents', () => {
  const chromeLinux =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  assert.deepEqual(describeUserAgent(chromeLinux), { browser: 'Chrome', os: 'Linux' });
  const safariPhone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  assert.deepEqual(describeUserAgent(safariPhone), { browser: 'Safari', os: 'iOS' });
  const edge =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
  assert.deepEqual(describeUserAgent(edge), { browser: 'Edge', os: 'Windows' });
  assert.deepEqual(
    describeUserAgent('Mozilla/5.0 (Android 14; Mobile; rv:131.0) Gecko/131.0 Firefox/131.0'),
    {
      browser: 'Firefox',
      os: 'Android',
    },
  );
});

test('unknown or missing user agents name nothing', () => {
  assert.deepEqual(describeUserAgent(null), { browser: null, os: null });
  assert.deepEqual(describeUserAgent('node'), { browser: null, os: null });
});
