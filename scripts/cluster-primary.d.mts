export declare function serveWithWorkers(options: {
  count: number;
  exec: string;
  args: string[];
  execArgv: string[];
  port: string;
  host?: string;
}): void;
