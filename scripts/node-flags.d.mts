export declare const SERVER_NODE_FLAGS: string[];
export declare const nextStartArgs: (port: number) => string[];
