// One WebSocket to a table (docs/protocol.md §3): hello with the last version seen, moves
// with acks, keep-alive pings, and reconnection with back-off after a drop.

const FATAL = new Set(["bad_token", "unknown_table", "spectator"]);

export class TableSocket {
  /**
   * who: {token} to play a seat or {table} to watch; version: the last version seen.
   * onMessage(msg) gets every server message; onStatus(status) gets "connecting",
   * "open", "reconnecting" or "closed".
   */
  constructor(who, { version = null, onMessage, onStatus }) {
    this.who = who;
    this.version = version;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ackId = 0;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.pingTimer = null;
    this.lastHeard = Date.now();
  }

  connect() {
    if (this.stopped) return;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.lastHeard = Date.now();
      ws.send(JSON.stringify({ type: "hello", ...this.who, version: this.version }));
      this.onStatus("open");
      this.startPings();
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = () => this.dropped(ws);
    ws.onerror = () => ws.close();
  }

  receive(text) {
    this.lastHeard = Date.now();
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "event" || msg.type === "sync") this.version = msg.version;
    if (msg.type === "error" && FATAL.has(msg.code) && msg.ack === undefined) this.stopped = true;
    this.onMessage(msg);
  }

  dropped(ws) {
    if (ws !== this.ws) return;
    clearInterval(this.pingTimer);
    if (this.stopped) {
      this.onStatus("closed");
      return;
    }
    this.attempt += 1;
    this.onStatus("reconnecting");
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt - 1, 5));
    setTimeout(() => this.connect(), delay);
  }

  startPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > 45000) {
        this.ws.close(); // silent for too long: treat as a drop
        return;
      }
      this.send({ type: "ping" });
    }, 15000);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Send a move against the last version seen; returns its ack id, or null if offline. */
  move(text) {
    this.ackId += 1;
    const sent = this.send({ type: "move", move: text, version: this.version ?? 0, ack: this.ackId });
    return sent ? this.ackId : null;
  }

  /** Drop the connection on purpose (the network tests use it too) and reconnect. */
  reconnect() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
