"""TFRecord files of ``tf.train.Example`` token ids, written and read without TensorFlow.

The shard format both frameworks read: TensorFlow's ``tf.data.TFRecordDataset`` reads these
files natively (with its own CRC checks), the PyTorch path reads them here. A record is

    uint64 length | uint32 masked_crc32c(length) | data | uint32 masked_crc32c(data)

(little-endian; CRC-32C, masked as TensorFlow's ``crc32c::Mask``). ``data`` is a serialized
``tf.train.Example`` holding one ``Int64List`` feature, encoded by hand in the same byte order
TensorFlow's C++ serializer uses (packed varints), so the files are byte-identical to
``tf.io.TFRecordWriter`` + ``Example.SerializeToString()`` (tested in
``tests/reference_trainer/test_torch_tfrecord.py``). A record whose CRC does not match raises
:class:`CorruptRecord`, as TensorFlow raises ``DataLossError``.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Sequence
from typing import BinaryIO

_MASK_DELTA = 0xA282EAD8


def _table() -> tuple[int, ...]:
    poly = 0x82F63B78  # CRC-32C (Castagnoli), reflected
    table = []
    for n in range(256):
        crc = n
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE = _table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


class CorruptRecord(ValueError):
    """A record's length or data fails its CRC, or the file ends inside a record."""


def write_records(handle: BinaryIO, records: Iterable[bytes]) -> int:
    """Append each record to an open binary file; returns the number written."""
    count = 0
    for data in records:
        header = struct.pack("<Q", len(data))
        handle.write(header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data)))
        count += 1
    return count


def read_records(handle: BinaryIO, name: str = "<file>") -> Iterator[bytes]:
    """Every record of an open binary file, CRCs checked."""
    index = 0
    while True:
        header = handle.read(12)
        if not header:
            return
        if len(header) < 12:
            raise CorruptRecord(f"{name}: truncated header of record {index}")
        length_bytes, length_crc = header[:8], struct.unpack("<I", header[8:])[0]
        if masked_crc32c(length_bytes) != length_crc:
            raise CorruptRecord(f"{name}: corrupted record {index} (length CRC mismatch)")
        (length,) = struct.unpack("<Q", length_bytes)
        body = handle.read(length + 4)
        if len(body) < length + 4:
            raise CorruptRecord(f"{name}: truncated record {index}")
        data, data_crc = body[:length], struct.unpack("<I", body[length:])[0]
        if masked_crc32c(data) != data_crc:
            raise CorruptRecord(f"{name}: corrupted record {index} (data CRC mismatch)")
        yield data
        index += 1


def _varint(value: int) -> bytes:
    value &= 0xFFFFFFFFFFFFFFFF  # int64 as protobuf encodes it: negative -> 10 bytes
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def encode_int64_example(key: str, values: Sequence[int]) -> bytes:
    """``tf.train.Example(features={key: Int64List(value=values)}).SerializeToString()``."""
    packed = b"".join(_varint(int(v)) for v in values)
    int64_list = _field(1, packed) if values else b""
    feature = _field(3, int64_list)  # Feature.int64_list is field 3
    entry = _field(1, key.encode("utf-8")) + _field(2, feature)
    return _field(1, _field(1, entry))  # Example.features -> Features.feature (map entry)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise CorruptRecord("truncated varint in an Example")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _fields(data: bytes) -> Iterator[tuple[int, int, bytes | int]]:
    pos = 0
    while pos < len(data):
        tag, pos = _read_varint(data, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = _read_varint(data, pos)
            yield number, wire, value
        elif wire == 2:
            length, pos = _read_varint(data, pos)
            yield number, wire, data[pos:pos + length]
            pos += length
        elif wire == 1:
            yield number, wire, data[pos:pos + 8]
            pos += 8
        elif wire == 5:
            yield number, wire, data[pos:pos + 4]
            pos += 4
        else:
            raise CorruptRecord(f"unsupported protobuf wire type {wire} in an Example")


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def decode_int64_example(data: bytes, key: str) -> list[int]:
    """The ``Int64List`` feature ``key`` of a serialized Example (packed or not); KeyError if absent."""
    wanted = key.encode("utf-8")
    for number, _, features in _fields(data):
        if number != 1:
            continue
        for fnumber, _, entry in _fields(features):  # type: ignore[arg-type]
            if fnumber != 1:
                continue
            name = feature = None
            for enumber, _, value in _fields(entry):  # type: ignore[arg-type]
                if enumber == 1:
                    name = value
                elif enumber == 2:
                    feature = value
            if name != wanted or feature is None:
                continue
            values: list[int] = []
            for knumber, _, int64_list in _fields(feature):  # type: ignore[arg-type]
                if knumber != 3:
                    raise CorruptRecord(f"feature {key!r} is not an Int64List")
                for vnumber, wire, value in _fields(int64_list):  # type: ignore[arg-type]
                    if vnumber != 1:
                        continue
                    if wire == 0:
                        values.append(_signed(value))  # type: ignore[arg-type]
                    else:
                        pos = 0
                        while pos < len(value):  # type: ignore[arg-type]
                            item, pos = _read_varint(value, pos)  # type: ignore[arg-type]
                            values.append(_signed(item))
            return values
    raise KeyError(key)
