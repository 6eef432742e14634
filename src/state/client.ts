// The part of the Redis client (ioredis) that toolbox uses, typed here: the library's published types
// then do not reach into ioredis's (which need @types/node), and ioredis stays a detail of
// shared.ts, loaded only when a state URL is given.
type Arg = string | number;

export interface RedisPipeline {
  xadd(key: string, ...args: Arg[]): RedisPipeline;
  zrem(key: string, ...members: string[]): RedisPipeline;
  exec(): Promise<unknown>;
}

export interface RedisClient {
  /** 'wait', 'connecting', 'connect', 'ready', 'reconnecting', 'close', 'end'. */
  readonly status: string;
  readonly options: { enableOfflineQueue?: boolean };
  connect(): Promise<void>;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: 'error', listener: (e: Error) => void): unknown;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: string, listener: () => void): unknown;
  ping(): Promise<string>;
  info(section?: string): Promise<string>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ...args: Arg[]): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
  pttl(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  evalsha(sha: string, numKeys: number, ...args: Arg[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: Arg[]): Promise<unknown>;
  xadd(key: string, ...args: Arg[]): Promise<string | null>;
  xrange(key: string, start: string, end: string, ...args: Arg[]): Promise<[string, string[]][]>;
  scan(cursor: string, ...args: Arg[]): Promise<[string, string[]]>;
  hgetall(key: string): Promise<Record<string, string>>;
  zcount(key: string, min: Arg, max: Arg): Promise<number>;
  /** Any other command (tests and administration). */
  call(command: string, ...args: Arg[]): Promise<unknown>;
  pipeline(): RedisPipeline;
}
