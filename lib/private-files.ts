import 'server-only';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The data folder holds the database and the generated secrets: only its owner may read it. Modes
 * are set with chmod as well, since the umask narrows the mode given at creation and an existing
 * folder or file keeps whatever mode it had.
 */
function chmodOrWarn(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (err) {
    // A folder owned by someone else (a mounted volume) cannot be changed; say so rather than refuse to start.
    console.warn(
      `[data] could not set mode ${mode.toString(8)} on ${path}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Creates the folder (mode 0700) or narrows an existing one to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodOrWarn(dir, 0o700);
}

/** Creates the file empty with mode 0600 when missing (before anyone writes to it), else narrows it to 0600. */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  chmodOrWarn(path, 0o600);
}

/** Narrows the file to 0600 when it exists. */
export function restrictIfPresent(path: string): void {
  if (existsSync(path)) chmodOrWarn(path, 0o600);
}
