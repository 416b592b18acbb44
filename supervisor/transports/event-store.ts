// Resumable Streamable HTTP streams (MCP 2025-11-25): every event sent on an SSE stream gets an
// id, and a client whose stream broke (a proxy timeout during a 300 s stateless run_js, say) can
// reconnect with Last-Event-ID and receive what it missed. One store per MCP session, in memory,
// bounded: the oldest events go first, so a resume from too far back fails (400) instead of
// growing memory without limit.
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const MAX_EVENTS = 500;
/** Tool results can be large (all of a run's output): cap the bytes held, not just the count. */
export const MAX_EVENT_BYTES = 2 * 1024 * 1024;
const SEPARATOR = '~';

interface Stored {
  readonly streamId: StreamId;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

export class BoundedEventStore implements EventStore {
  readonly #events = new Map<EventId, Stored>();
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  #bytes = 0;
  #seq = 0;

  constructor(maxEvents = MAX_EVENTS, maxBytes = MAX_EVENT_BYTES) {
    this.#maxEvents = maxEvents;
    this.#maxBytes = maxBytes;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}${SEPARATOR}${++this.#seq}`;
    const bytes = JSON.stringify(message).length;
    this.#events.set(id, { streamId, message, bytes });
    this.#bytes += bytes;
    for (const [oldId, old] of this.#events) {
      if (this.#events.size <= this.#maxEvents && this.#bytes <= this.#maxBytes) break;
      if (oldId === id) break; // always keep the newest, however large
      this.#events.delete(oldId);
      this.#bytes -= old.bytes;
    }
    return id;
  }

  /** Undefined for an id this store does not hold (never issued, or evicted): the SDK answers 400. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (last === undefined) throw new Error(`event ${lastEventId} is no longer available`);
    let after = false;
    for (const [id, event] of [...this.#events]) {
      if (id === lastEventId) {
        after = true;
        continue;
      }
      // Priming events are stored as `{}`: they carry nothing to replay.
      if (after && event.streamId === last.streamId && 'jsonrpc' in event.message) await send(id, event.message);
    }
    return last.streamId;
  }
}
