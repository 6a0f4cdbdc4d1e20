import type { Server } from 'node:http';

export declare const MAX_HEAD_BYTES: number;
export declare const CONNECTION_MESSAGE: string;
export declare function mayBeHead(bytes: Buffer): boolean;
export declare function headLength(bytes: Buffer): number;
export declare function sessionOf(cookieHeader: string | undefined): string | undefined;
export declare function sessionOfHead(head: Buffer): string | undefined;
export declare function ownerOf(session: string, count: number): number;
export declare function belongsElsewhere(
  cookieHeader: string | undefined,
  self: number,
  count: number,
): boolean;
export declare function serveHandedConnections(server: Server): void;
