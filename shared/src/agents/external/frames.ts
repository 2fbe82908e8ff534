/**
 * The agent protocol's binary framing (docs/agent-protocol.md#binary-framing), chosen by the agent
 * in its handshake: each message is a 4-byte little-endian length and that many bytes, the first
 * of them its kind. The decisions — the lab's `act`, the agent's `move` — are packed; every other
 * message is its JSON in a frame. All integers little-endian.
 *
 *   kind 1, JSON:  the message's UTF-8 JSON
 *   kind 2, act:   u32 id, u32 game, u8 seat, u8 age, u8 players, u8 0, u32 budget_ms,
 *                  u16 observation bytes (B), u16 legal moves (L), the B observation bytes,
 *                  then L × (u16 action, u8 left, u8 right)
 *   kind 3, move:  u32 id, u32 game, u16 action, then optionally the UTF-8 JSON of its stats
 */
export const FRAME_JSON = 1;
export const FRAME_ACT = 2;
export const FRAME_MOVE = 3;

const HEADER = 4;

/** A frame of kind 1 around a message's JSON. */
export function jsonFrame(message: unknown): Uint8Array {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const out = Buffer.allocUnsafe(HEADER + 1 + body.length);
  out.writeUInt32LE(1 + body.length, 0);
  out[HEADER] = FRAME_JSON;
  body.copy(out, HEADER + 1);
  return out;
}

export interface ActFields {
  id: number;
  game: number;
  seat: number;
  age: number;
  players: number;
  budgetMs: number;
  observation: Uint8Array;
  /** Per legal move: action, coins left, coins right. */
  legal: readonly { action: number; left: number; right: number }[];
}

/** An act frame, whole (length first). */
export function actFrame(a: ActFields): Uint8Array {
  const payload = 1 + 4 + 4 + 4 + 4 + 2 + 2 + a.observation.length + 4 * a.legal.length;
  const out = Buffer.allocUnsafe(HEADER + payload);
  let at = out.writeUInt32LE(payload, 0);
  at = out.writeUInt8(FRAME_ACT, at);
  at = out.writeUInt32LE(a.id, at);
  at = out.writeUInt32LE(a.game, at);
  at = out.writeUInt8(a.seat, at);
  at = out.writeUInt8(a.age, at);
  at = out.writeUInt8(a.players, at);
  at = out.writeUInt8(0, at);
  at = out.writeUInt32LE(a.budgetMs, at);
  at = out.writeUInt16LE(a.observation.length, at);
  at = out.writeUInt16LE(a.legal.length, at);
  out.set(a.observation, at);
  at += a.observation.length;
  for (const m of a.legal) {
    at = out.writeUInt16LE(m.action, at);
    at = out.writeUInt8(Math.min(255, m.left), at);
    at = out.writeUInt8(Math.min(255, m.right), at);
  }
  return out;
}

/** A frame's payload read as a message: kind 1 its JSON, kind 3 a move; undefined for anything else. */
export function readFrame(payload: Uint8Array): Record<string, unknown> | undefined {
  const b = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (b.length >= 1 && b[0] === FRAME_JSON) {
    try {
      const msg: unknown = JSON.parse(b.toString('utf8', 1));
      return typeof msg === 'object' && msg !== null ? (msg as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  if (b.length >= 11 && b[0] === FRAME_MOVE) {
    const move: Record<string, unknown> = { type: 'move', id: b.readUInt32LE(1), game: b.readUInt32LE(5), action: b.readUInt16LE(9) };
    if (b.length > 11) {
      try {
        move.stats = JSON.parse(b.toString('utf8', 11));
      } catch {
        // Statistics that do not parse are left out, as those of the wrong shape are.
      }
    }
    return move;
  }
  return undefined;
}
