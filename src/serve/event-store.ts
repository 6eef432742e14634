// Resumable SSE streams for 2025-11-25 sessions (SEP-1699). With an event store the SDK's transport
// opens each POST's SSE stream with a priming event (an id and empty data, and the `retry:` below), and
// a client whose stream broke reconnects with GET and `Last-Event-ID` to get what it missed. The store
// is one per session, in this process (a session lives in one process), and bounded: the newest events
// up to MAX_EVENTS and MAX_BYTES are kept, so a long session cannot grow it without end; a client that
// resumes from an event already dropped is refused by the SDK rather than given a partial stream.
import { randomBytes } from 'node:crypto';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** The `retry:` (ms) the priming event asks a client to wait before it reconnects a broken stream. */
export const SSE_RETRY_MS = 1000;
/** At most this many events are kept per session… */
export const MAX_EVENTS = 1000;
/** …and at most this many bytes of them (their JSON). */
export const MAX_BYTES = 4 * 1024 * 1024;

interface Stored {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export class SessionEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private bytes = 0;
  private next = 0;
  // Event ids are this session's own: unguessable, so an id from another session never matches.
  private readonly prefix = randomBytes(9).toString('base64url');

  constructor(
    private readonly maxEvents = MAX_EVENTS,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${this.prefix}.${++this.next}`;
    const bytes = JSON.stringify(message).length;
    this.events.push({ id, streamId, message, bytes });
    this.bytes += bytes;
    while (this.events.length > this.maxEvents || (this.bytes > this.maxBytes && this.events.length > 1)) {
      this.bytes -= this.events.shift()!.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) throw new Error('unknown or expired Last-Event-ID');
    const streamId = this.events[at]!.streamId;
    for (const e of this.events.slice(at + 1)) {
      // The priming events carry no message: nothing to send again.
      if (e.streamId === streamId && Object.keys(e.message).length) await send(e.id, e.message);
    }
    return streamId;
  }

  /** Events kept (for tests). */
  get size(): number {
    return this.events.length;
  }
}
