import { randomBytes } from 'node:crypto';

/** 192 random bits, base64url (32 characters); never derived from any id. */
export function newShareToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Tokens we could have minted; anything else is a 404 without touching the database. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{32}$/;
