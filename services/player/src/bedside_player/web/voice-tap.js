// The microphone's samples, taken on the audio thread and posted to the page in chunks.
//
// The page's own thread may be busy (drawing, a slow phone); messages wait for it in order,
// so nothing is dropped, as it was with a ScriptProcessor running on that thread.
const CHUNK = 4096; // samples a message (~85 ms at 48 kHz), the unit the page judges speech in

class VoiceTap extends AudioWorkletProcessor {
  constructor() {
    super();
    this.chunk = new Float32Array(CHUNK);
    this.filled = 0;
    this.open = true;
    // "flush": the part chunk is posted, then "flushed", after every chunk before it.
    this.port.onmessage = () => {
      if (this.filled) this.port.postMessage(this.chunk.slice(0, this.filled));
      this.filled = 0;
      this.open = false;
      this.port.postMessage("flushed");
    };
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!this.open) return false;
    if (!channel) return true; // no input connected yet
    let at = 0;
    while (at < channel.length) {
      const taken = Math.min(channel.length - at, CHUNK - this.filled);
      this.chunk.set(channel.subarray(at, at + taken), this.filled);
      this.filled += taken;
      at += taken;
      if (this.filled === CHUNK) {
        this.port.postMessage(this.chunk, [this.chunk.buffer]);
        this.chunk = new Float32Array(CHUNK);
        this.filled = 0;
      }
    }
    return true;
  }
}

registerProcessor("bedside-voice-tap", VoiceTap);
