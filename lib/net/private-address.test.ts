import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPrivateAddress } from '@/lib/net/private-address';

test('private, loopback, link-local and metadata addresses are recognised in every spelling', () => {
  for (const ip of [
    '127.0.0.1',
    '10.0.0.5',
    '172.20.1.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '[::1]',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '[::ffff:a9fe:a9fe]',
    '64:ff9b::10.0.0.1',
    '224.0.0.1',
  ]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
});

test('public addresses pass', () => {
  for (const ip of ['1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
    assert.equal(isPrivateAddress(ip), false, ip);
});

test('numeric host forms are normalised by the URL parser before they reach the check', () => {
  for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/']) {
    assert.equal(isPrivateAddress(new URL(url).hostname), true, url);
  }
});
