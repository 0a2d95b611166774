// Protocol Buffers' wire format for the plugin's messages, driven by a table of each message's fields (messages.ts):
// requests decode into plain objects and responses encode from them, a google.protobuf.Struct being a plain object
// both ways. google-protobuf made every Struct value a message object first; on a refresh of 1,000 resources that was
// the plugin's largest cost after HTTP/2 (bench/profile.ts). Fields a table does not name are skipped when read.

/** How a field is carried. `struct` is google.protobuf.Struct, a plain object here; a map's keys are strings. */
export type FieldType =
  | "string"
  | "bytes"
  | "bool"
  | "int32"
  | "double"
  | "struct"
  | { message: MessageSpec }
  | { map: "string" | MessageSpec };

/** A field: its name here, its type, and whether it repeats (as a .proto declares it). */
export type FieldSpec = readonly [name: string, type: FieldType, repeated?: "repeated"];

/** A message's fields by their numbers. */
export type MessageSpec = Readonly<Record<number, FieldSpec>>;

export type Plain = Record<string, unknown>;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

const tagOf = (field: number, wireType: number) => field * 8 + wireType;

// ---- reading ----

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  varint(): number {
    let result = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error("protobuf: the message ends inside a varint");
      // Lengths, enums and tags stay far below 2^53, where a number would lose precision.
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
    }
    throw new Error("protobuf: malformed varint");
  }

  /** An int32 or enum: a negative one is ten bytes, of which its low 32 bits are the value. */
  int32(): number {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error("protobuf: the message ends inside a varint");
      if (shift < 32) value |= (byte & 0x7f) << shift;
      if (byte < 0x80) return value | 0;
    }
    throw new Error("protobuf: malformed varint");
  }

  double(): number {
    const value = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  /** A length-delimited field's end; the position is its start. */
  delimited(): number {
    const end = this.varint() + this.pos;
    if (end > this.buf.length) throw new Error("protobuf: a field runs past the message");
    return end;
  }

  string(): string {
    const end = this.delimited();
    const text = this.buf.toString("utf8", this.pos, end);
    this.pos = end;
    return text;
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === FIXED64) this.pos += 8;
    else if (wireType === LENGTH_DELIMITED) this.pos = this.delimited();
    else if (wireType === FIXED32) this.pos += 4;
    else throw new Error(`protobuf: wire type ${wireType} is not supported`);
  }
}

/** google.protobuf.Struct: `fields` (1) is a map of Value. */
function readStruct(reader: Reader, end: number): Plain {
  const out: Plain = {};
  while (reader.pos < end) {
    const tag = reader.varint();
    if (tag !== tagOf(1, LENGTH_DELIMITED)) {
      reader.skip(tag & 7);
      continue;
    }
    const entryEnd = reader.delimited();
    let key = "";
    let value: unknown = null;
    while (reader.pos < entryEnd) {
      const entryTag = reader.varint();
      if (entryTag === tagOf(1, LENGTH_DELIMITED)) key = reader.string();
      else if (entryTag === tagOf(2, LENGTH_DELIMITED)) value = readValue(reader, reader.delimited());
      else reader.skip(entryTag & 7);
    }
    out[key] = value;
  }
  return out;
}

/** google.protobuf.Value: one of null (1), number (2), string (3), bool (4), struct (5), list (6). */
function readValue(reader: Reader, end: number): unknown {
  let value: unknown = null;
  while (reader.pos < end) {
    const tag = reader.varint();
    if (tag === tagOf(2, FIXED64)) value = reader.double();
    else if (tag === tagOf(3, LENGTH_DELIMITED)) value = reader.string();
    else if (tag === tagOf(4, VARINT)) value = reader.varint() !== 0;
    else if (tag === tagOf(5, LENGTH_DELIMITED)) value = readStruct(reader, reader.delimited());
    else if (tag === tagOf(6, LENGTH_DELIMITED)) value = readList(reader, reader.delimited());
    else if (tag === tagOf(1, VARINT)) {
      reader.varint();
      value = null;
    } else reader.skip(tag & 7);
  }
  return value;
}

/** google.protobuf.ListValue: `values` (1). */
function readList(reader: Reader, end: number): unknown[] {
  const out: unknown[] = [];
  while (reader.pos < end) {
    const tag = reader.varint();
    if (tag === tagOf(1, LENGTH_DELIMITED)) out.push(readValue(reader, reader.delimited()));
    else reader.skip(tag & 7);
  }
  return out;
}

/** proto3's value of a field the message does not carry. */
function absent([, type, repeated]: FieldSpec): unknown {
  if (repeated) return [];
  if (type === "string") return "";
  if (type === "bool") return false;
  if (type === "int32" || type === "double") return 0;
  if (type === "bytes") return new Uint8Array(0);
  if (typeof type === "object" && "map" in type) return {};
  return undefined;
}

function readField(reader: Reader, type: FieldType): unknown {
  switch (type) {
    case "string":
      return reader.string();
    case "bool":
      return reader.varint() !== 0;
    case "int32":
      return reader.int32();
    case "double":
      return reader.double();
    case "bytes": {
      const end = reader.delimited();
      const bytes = new Uint8Array(reader.buf.subarray(reader.pos, end));
      reader.pos = end;
      return bytes;
    }
    case "struct":
      return readStruct(reader, reader.delimited());
    default:
      if ("message" in type) return readMessage(reader, reader.delimited(), type.message);
      throw new Error("protobuf: a map is read by its entries");
  }
}

function readMessage(reader: Reader, end: number, spec: MessageSpec): Plain {
  const out: Plain = {};
  for (const field of Object.values(spec)) out[field[0]] = absent(field);
  while (reader.pos < end) {
    const tag = reader.varint();
    const field = spec[Math.floor(tag / 8)];
    if (!field) {
      reader.skip(tag & 7);
      continue;
    }
    const [name, type, repeated] = field;
    if (typeof type === "object" && "map" in type) {
      const entryEnd = reader.delimited();
      const valueType: FieldType = type.map === "string" ? "string" : { message: type.map };
      let key = "";
      let value = valueType === "string" ? "" : {};
      while (reader.pos < entryEnd) {
        const entryTag = reader.varint();
        if (entryTag === tagOf(1, LENGTH_DELIMITED)) key = reader.string();
        else if (entryTag >>> 3 === 2) value = readField(reader, valueType) as never;
        else reader.skip(entryTag & 7);
      }
      (out[name] as Plain)[key] = value;
    } else if (repeated) (out[name] as unknown[]).push(readField(reader, type));
    else out[name] = readField(reader, type);
  }
  return out;
}

/** A message from its bytes, every field of its table present (proto3's defaults for those not sent). */
export function decode(spec: MessageSpec, bytes: Buffer): Plain {
  const reader = new Reader(bytes);
  return readMessage(reader, bytes.length, spec);
}

// ---- writing: the sizes first, then one buffer of exactly that size ----

const varintSize = (value: number): number => {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
};

/** A length-delimited field's size: tag, length, contents. */
const delimitedSize = (field: number, length: number) =>
  varintSize(tagOf(field, LENGTH_DELIMITED)) + varintSize(length) + length;

class Writer {
  pos = 0;
  /** The contents' size of every Struct, list and message of the value being written, computed once. */
  readonly sizes = new Map<object, number>();
  buf = Buffer.alloc(0);

  varint(value: number): void {
    if (value < 0) throw new Error("protobuf: negative numbers are not written");
    while (value >= 0x80) {
      this.buf[this.pos++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    this.buf[this.pos++] = value;
  }

  tag(field: number, wireType: number): void {
    this.varint(tagOf(field, wireType));
  }

  string(field: number, text: string): void {
    this.tag(field, LENGTH_DELIMITED);
    this.varint(Buffer.byteLength(text));
    this.pos += this.buf.write(text, this.pos);
  }

  double(field: number, value: number): void {
    this.tag(field, FIXED64);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
  }
}

/** The contents' size of a Struct (a plain object; undefined members left out, as JSON leaves them). */
function structSize(writer: Writer, struct: Plain): number {
  const known = writer.sizes.get(struct);
  if (known !== undefined) return known;
  let size = 0;
  for (const key in struct) {
    const value = struct[key];
    if (value === undefined) continue;
    const keyLength = Buffer.byteLength(key);
    const entry = 1 + varintSize(keyLength) + keyLength + delimitedSize(2, valueSize(writer, value));
    size += delimitedSize(1, entry);
  }
  writer.sizes.set(struct, size);
  return size;
}

function valueSize(writer: Writer, value: unknown): number {
  if (value === null || value === undefined) return 2;
  switch (typeof value) {
    case "number":
      return 9;
    case "boolean":
      return 2;
    case "string": {
      const length = Buffer.byteLength(value);
      return 1 + varintSize(length) + length;
    }
    case "object": {
      if (Array.isArray(value)) return delimitedSize(6, listSize(writer, value));
      return delimitedSize(5, structSize(writer, value as Plain));
    }
    default:
      throw new Error(`protobuf: a ${typeof value} cannot be a Struct value`);
  }
}

function listSize(writer: Writer, list: unknown[]): number {
  const known = writer.sizes.get(list);
  if (known !== undefined) return known;
  let size = 0;
  for (const item of list) size += delimitedSize(1, valueSize(writer, item));
  writer.sizes.set(list, size);
  return size;
}

function writeStruct(writer: Writer, struct: Plain): void {
  for (const key in struct) {
    const value = struct[key];
    if (value === undefined) continue;
    const keyLength = Buffer.byteLength(key);
    const inner = valueSize(writer, value);
    writer.tag(1, LENGTH_DELIMITED);
    writer.varint(1 + varintSize(keyLength) + keyLength + delimitedSize(2, inner));
    writer.string(1, key);
    writer.tag(2, LENGTH_DELIMITED);
    writer.varint(inner);
    writeValue(writer, value);
  }
}

function writeValue(writer: Writer, value: unknown): void {
  if (value === null || value === undefined) {
    writer.tag(1, VARINT);
    writer.varint(0);
  } else if (typeof value === "number") writer.double(2, value);
  else if (typeof value === "string") writer.string(3, value);
  else if (typeof value === "boolean") {
    writer.tag(4, VARINT);
    writer.varint(value ? 1 : 0);
  } else if (Array.isArray(value)) {
    writer.tag(6, LENGTH_DELIMITED);
    writer.varint(writer.sizes.get(value)!);
    for (const item of value) {
      writer.tag(1, LENGTH_DELIMITED);
      writer.varint(valueSize(writer, item));
      writeValue(writer, item);
    }
  } else {
    writer.tag(5, LENGTH_DELIMITED);
    writer.varint(writer.sizes.get(value)!);
    writeStruct(writer, value as Plain);
  }
}

/** Whether proto3 writes the value: not a scalar's default. */
function written(type: FieldType, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (type === "string") return value !== "";
  if (type === "bool") return value !== false;
  if (type === "int32" || type === "double") return value !== 0;
  if (type === "bytes") return (value as Uint8Array).length > 0;
  return true;
}

/** The size of one occurrence of a field: tag and contents. */
function fieldSize(writer: Writer, number: number, type: FieldType, value: unknown): number {
  switch (type) {
    case "string":
      return delimitedSize(number, Buffer.byteLength(value as string));
    case "bytes":
      return delimitedSize(number, (value as Uint8Array).length);
    case "bool":
      return varintSize(tagOf(number, VARINT)) + 1;
    case "int32":
      return varintSize(tagOf(number, VARINT)) + varintSize(value as number);
    case "double":
      return varintSize(tagOf(number, FIXED64)) + 8;
    case "struct":
      return delimitedSize(number, structSize(writer, value as Plain));
    default:
      if ("message" in type) return delimitedSize(number, messageSize(writer, type.message, value as Plain));
      throw new Error("protobuf: a map is sized by its entries");
  }
}

/** A map's entries, each a message of key (1) and value (2). */
function mapEntries(type: { map: "string" | MessageSpec }, map: Plain): [string, FieldType, unknown][] {
  const valueType: FieldType = type.map === "string" ? "string" : { message: type.map };
  return Object.entries(map).map(([key, value]) => [key, valueType, value]);
}

function entrySize(writer: Writer, key: string, valueType: FieldType, value: unknown): number {
  return fieldSize(writer, 1, "string", key) + fieldSize(writer, 2, valueType, value);
}

function messageSize(writer: Writer, spec: MessageSpec, message: Plain): number {
  const known = writer.sizes.get(message);
  if (known !== undefined) return known;
  let size = 0;
  for (const [number, [name, type, repeated]] of Object.entries(spec)) {
    const value = message[name];
    const n = Number(number);
    if (typeof type === "object" && "map" in type) {
      for (const [key, valueType, item] of mapEntries(type, (value ?? {}) as Plain))
        size += delimitedSize(n, entrySize(writer, key, valueType, item));
    } else if (repeated) {
      for (const item of (value ?? []) as unknown[]) size += fieldSize(writer, n, type, item);
    } else if (written(type, value)) size += fieldSize(writer, n, type, value);
  }
  writer.sizes.set(message, size);
  return size;
}

function writeField(writer: Writer, number: number, type: FieldType, value: unknown): void {
  switch (type) {
    case "string":
      return writer.string(number, value as string);
    case "bytes": {
      const bytes = value as Uint8Array;
      writer.tag(number, LENGTH_DELIMITED);
      writer.varint(bytes.length);
      writer.buf.set(bytes, writer.pos);
      writer.pos += bytes.length;
      return;
    }
    case "bool":
      writer.tag(number, VARINT);
      return writer.varint(value ? 1 : 0);
    case "int32":
      writer.tag(number, VARINT);
      return writer.varint(value as number);
    case "double":
      return writer.double(number, value as number);
    case "struct":
      writer.tag(number, LENGTH_DELIMITED);
      writer.varint(structSize(writer, value as Plain));
      return writeStruct(writer, value as Plain);
    default:
      if (!("message" in type)) throw new Error("protobuf: a map is written by its entries");
      writer.tag(number, LENGTH_DELIMITED);
      writer.varint(messageSize(writer, type.message, value as Plain));
      return writeMessage(writer, type.message, value as Plain);
  }
}

function writeMessage(writer: Writer, spec: MessageSpec, message: Plain): void {
  for (const [number, [name, type, repeated]] of Object.entries(spec)) {
    const value = message[name];
    const n = Number(number);
    if (typeof type === "object" && "map" in type) {
      for (const [key, valueType, item] of mapEntries(type, (value ?? {}) as Plain)) {
        writer.tag(n, LENGTH_DELIMITED);
        writer.varint(entrySize(writer, key, valueType, item));
        writeField(writer, 1, "string", key);
        writeField(writer, 2, valueType, item);
      }
    } else if (repeated) {
      for (const item of (value ?? []) as unknown[]) writeField(writer, n, type, item);
    } else if (written(type, value)) writeField(writer, n, type, value);
  }
}

/**
 * A message's bytes. Its fields go in their numbers' order; scalars at proto3's default are left
 * out, a Struct or message present is written even when empty; a Struct's undefined members are left out.
 */
export function encode(spec: MessageSpec, message: Plain): Buffer {
  const writer = new Writer();
  writer.buf = Buffer.allocUnsafe(messageSize(writer, spec, message));
  writeMessage(writer, spec, message);
  if (writer.pos !== writer.buf.length) throw new Error("protobuf: a message was not written at its size");
  return writer.buf;
}
