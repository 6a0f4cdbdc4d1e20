type Env = Record<string, string | undefined>;
export declare const MAX_WORKERS: number;
export declare const RESTART_BASE_MS: number;
export declare const RESTART_MAX_MS: number;
export declare const STABLE_AFTER_MS: number;
export declare function hasSharedStore(env: Env): boolean;
export declare function workerCount(
  env: Env,
  cores: number,
): { count: number; reason: string; note?: string };
export declare function restartDelay(
  crashesInARow: number,
  ranMs: number,
): { delayMs: number; crashes: number };
export declare function workerOptions(argv: string[]): {
  port?: string;
  hostname?: string;
  keepAliveTimeout?: string;
};
