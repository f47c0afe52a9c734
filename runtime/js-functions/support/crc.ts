// CRCs of the `crc` crate's catalogue (the RevEng CRC catalogue): each algorithm is its Rocksoft model
// parameters, all computed by one table-driven implementation over bigints (widths reach 82 bits).

/** width, poly, init, refin, refout, xorout, check (the CRC of "123456789", verified by the tests). */
type Params = readonly [number, bigint, bigint, boolean, boolean, bigint, bigint];

const T = true;
const F = false;

export const CRC_CATALOGUE: ReadonlyMap<string, Params> = new Map<string, Params>([
  ['CRC_3_GSM', [3, 0x3n, 0x0n, F, F, 0x7n, 0x4n]],
  ['CRC_3_ROHC', [3, 0x3n, 0x7n, T, T, 0x0n, 0x6n]],
  ['CRC_4_G_704', [4, 0x3n, 0x0n, T, T, 0x0n, 0x7n]],
  ['CRC_4_INTERLAKEN', [4, 0x3n, 0xfn, F, F, 0xfn, 0xbn]],
  ['CRC_5_EPC_C1G2', [5, 0x09n, 0x09n, F, F, 0x00n, 0x00n]],
  ['CRC_5_G_704', [5, 0x15n, 0x00n, T, T, 0x00n, 0x07n]],
  ['CRC_5_USB', [5, 0x05n, 0x1fn, T, T, 0x1fn, 0x19n]],
  ['CRC_6_CDMA2000_A', [6, 0x27n, 0x3fn, F, F, 0x00n, 0x0dn]],
  ['CRC_6_CDMA2000_B', [6, 0x07n, 0x3fn, F, F, 0x00n, 0x3bn]],
  ['CRC_6_DARC', [6, 0x19n, 0x00n, T, T, 0x00n, 0x26n]],
  ['CRC_6_G_704', [6, 0x03n, 0x00n, T, T, 0x00n, 0x06n]],
  ['CRC_6_GSM', [6, 0x2fn, 0x00n, F, F, 0x3fn, 0x13n]],
  ['CRC_7_MMC', [7, 0x09n, 0x00n, F, F, 0x00n, 0x75n]],
  ['CRC_7_ROHC', [7, 0x4fn, 0x7fn, T, T, 0x00n, 0x53n]],
  ['CRC_7_UMTS', [7, 0x45n, 0x00n, F, F, 0x00n, 0x61n]],
  ['CRC_8_AUTOSAR', [8, 0x2fn, 0xffn, F, F, 0xffn, 0xdfn]],
  ['CRC_8_BLUETOOTH', [8, 0xa7n, 0x00n, T, T, 0x00n, 0x26n]],
  ['CRC_8_CDMA2000', [8, 0x9bn, 0xffn, F, F, 0x00n, 0xdan]],
  ['CRC_8_DARC', [8, 0x39n, 0x00n, T, T, 0x00n, 0x15n]],
  ['CRC_8_DVB_S2', [8, 0xd5n, 0x00n, F, F, 0x00n, 0xbcn]],
  ['CRC_8_GSM_A', [8, 0x1dn, 0x00n, F, F, 0x00n, 0x37n]],
  ['CRC_8_GSM_B', [8, 0x49n, 0x00n, F, F, 0xffn, 0x94n]],
  ['CRC_8_HITAG', [8, 0x1dn, 0xffn, F, F, 0x00n, 0xb4n]],
  ['CRC_8_I_432_1', [8, 0x07n, 0x00n, F, F, 0x55n, 0xa1n]],
  ['CRC_8_I_CODE', [8, 0x1dn, 0xfdn, F, F, 0x00n, 0x7en]],
  ['CRC_8_LTE', [8, 0x9bn, 0x00n, F, F, 0x00n, 0xean]],
  ['CRC_8_MAXIM_DOW', [8, 0x31n, 0x00n, T, T, 0x00n, 0xa1n]],
  ['CRC_8_MIFARE_MAD', [8, 0x1dn, 0xc7n, F, F, 0x00n, 0x99n]],
  ['CRC_8_NRSC_5', [8, 0x31n, 0xffn, F, F, 0x00n, 0xf7n]],
  ['CRC_8_OPENSAFETY', [8, 0x2fn, 0x00n, F, F, 0x00n, 0x3en]],
  ['CRC_8_ROHC', [8, 0x07n, 0xffn, T, T, 0x00n, 0xd0n]],
  ['CRC_8_SAE_J1850', [8, 0x1dn, 0xffn, F, F, 0xffn, 0x4bn]],
  ['CRC_8_SMBUS', [8, 0x07n, 0x00n, F, F, 0x00n, 0xf4n]],
  ['CRC_8_TECH_3250', [8, 0x1dn, 0xffn, T, T, 0x00n, 0x97n]],
  ['CRC_8_WCDMA', [8, 0x9bn, 0x00n, T, T, 0x00n, 0x25n]],
  ['CRC_10_ATM', [10, 0x233n, 0x000n, F, F, 0x000n, 0x199n]],
  ['CRC_10_CDMA2000', [10, 0x3d9n, 0x3ffn, F, F, 0x000n, 0x233n]],
  ['CRC_10_GSM', [10, 0x175n, 0x000n, F, F, 0x3ffn, 0x12an]],
  ['CRC_11_FLEXRAY', [11, 0x385n, 0x01an, F, F, 0x000n, 0x5a3n]],
  ['CRC_11_UMTS', [11, 0x307n, 0x000n, F, F, 0x000n, 0x061n]],
  ['CRC_12_CDMA2000', [12, 0xf13n, 0xfffn, F, F, 0x000n, 0xd4dn]],
  ['CRC_12_DECT', [12, 0x80fn, 0x000n, F, F, 0x000n, 0xf5bn]],
  ['CRC_12_GSM', [12, 0xd31n, 0x000n, F, F, 0xfffn, 0xb34n]],
  ['CRC_12_UMTS', [12, 0x80fn, 0x000n, F, T, 0x000n, 0xdafn]],
  ['CRC_13_BBC', [13, 0x1cf5n, 0x0000n, F, F, 0x0000n, 0x04fan]],
  ['CRC_14_DARC', [14, 0x0805n, 0x0000n, T, T, 0x0000n, 0x082dn]],
  ['CRC_14_GSM', [14, 0x202dn, 0x0000n, F, F, 0x3fffn, 0x30aen]],
  ['CRC_15_CAN', [15, 0x4599n, 0x0000n, F, F, 0x0000n, 0x059en]],
  ['CRC_15_MPT1327', [15, 0x6815n, 0x0000n, F, F, 0x0001n, 0x2566n]],
  ['CRC_16_ARC', [16, 0x8005n, 0x0000n, T, T, 0x0000n, 0xbb3dn]],
  ['CRC_16_CDMA2000', [16, 0xc867n, 0xffffn, F, F, 0x0000n, 0x4c06n]],
  ['CRC_16_CMS', [16, 0x8005n, 0xffffn, F, F, 0x0000n, 0xaee7n]],
  ['CRC_16_DDS_110', [16, 0x8005n, 0x800dn, F, F, 0x0000n, 0x9ecfn]],
  ['CRC_16_DECT_R', [16, 0x0589n, 0x0000n, F, F, 0x0001n, 0x007en]],
  ['CRC_16_DECT_X', [16, 0x0589n, 0x0000n, F, F, 0x0000n, 0x007fn]],
  ['CRC_16_DNP', [16, 0x3d65n, 0x0000n, T, T, 0xffffn, 0xea82n]],
  ['CRC_16_EN_13757', [16, 0x3d65n, 0x0000n, F, F, 0xffffn, 0xc2b7n]],
  ['CRC_16_GENIBUS', [16, 0x1021n, 0xffffn, F, F, 0xffffn, 0xd64en]],
  ['CRC_16_GSM', [16, 0x1021n, 0x0000n, F, F, 0xffffn, 0xce3cn]],
  ['CRC_16_IBM_3740', [16, 0x1021n, 0xffffn, F, F, 0x0000n, 0x29b1n]],
  ['CRC_16_IBM_SDLC', [16, 0x1021n, 0xffffn, T, T, 0xffffn, 0x906en]],
  ['CRC_16_ISO_IEC_14443_3_A', [16, 0x1021n, 0xc6c6n, T, T, 0x0000n, 0xbf05n]],
  ['CRC_16_KERMIT', [16, 0x1021n, 0x0000n, T, T, 0x0000n, 0x2189n]],
  ['CRC_16_LJ1200', [16, 0x6f63n, 0x0000n, F, F, 0x0000n, 0xbdf4n]],
  ['CRC_16_M17', [16, 0x5935n, 0xffffn, F, F, 0x0000n, 0x772bn]],
  ['CRC_16_MAXIM_DOW', [16, 0x8005n, 0x0000n, T, T, 0xffffn, 0x44c2n]],
  ['CRC_16_MCRF4XX', [16, 0x1021n, 0xffffn, T, T, 0x0000n, 0x6f91n]],
  ['CRC_16_MODBUS', [16, 0x8005n, 0xffffn, T, T, 0x0000n, 0x4b37n]],
  ['CRC_16_NRSC_5', [16, 0x080bn, 0xffffn, T, T, 0x0000n, 0xa066n]],
  ['CRC_16_OPENSAFETY_A', [16, 0x5935n, 0x0000n, F, F, 0x0000n, 0x5d38n]],
  ['CRC_16_OPENSAFETY_B', [16, 0x755bn, 0x0000n, F, F, 0x0000n, 0x20fen]],
  ['CRC_16_PROFIBUS', [16, 0x1dcfn, 0xffffn, F, F, 0xffffn, 0xa819n]],
  ['CRC_16_RIELLO', [16, 0x1021n, 0xb2aan, T, T, 0x0000n, 0x63d0n]],
  ['CRC_16_SPI_FUJITSU', [16, 0x1021n, 0x1d0fn, F, F, 0x0000n, 0xe5ccn]],
  ['CRC_16_T10_DIF', [16, 0x8bb7n, 0x0000n, F, F, 0x0000n, 0xd0dbn]],
  ['CRC_16_TELEDISK', [16, 0xa097n, 0x0000n, F, F, 0x0000n, 0x0fb3n]],
  ['CRC_16_TMS37157', [16, 0x1021n, 0x89ecn, T, T, 0x0000n, 0x26b1n]],
  ['CRC_16_UMTS', [16, 0x8005n, 0x0000n, F, F, 0x0000n, 0xfee8n]],
  ['CRC_16_USB', [16, 0x8005n, 0xffffn, T, T, 0xffffn, 0xb4c8n]],
  ['CRC_16_XMODEM', [16, 0x1021n, 0x0000n, F, F, 0x0000n, 0x31c3n]],
  ['CRC_17_CAN_FD', [17, 0x1685bn, 0x00000n, F, F, 0x00000n, 0x04f03n]],
  ['CRC_21_CAN_FD', [21, 0x102899n, 0x000000n, F, F, 0x000000n, 0x0ed841n]],
  ['CRC_24_BLE', [24, 0x00065bn, 0x555555n, T, T, 0x000000n, 0xc25a56n]],
  ['CRC_24_FLEXRAY_A', [24, 0x5d6dcbn, 0xfedcban, F, F, 0x000000n, 0x7979bdn]],
  ['CRC_24_FLEXRAY_B', [24, 0x5d6dcbn, 0xabcdefn, F, F, 0x000000n, 0x1f23b8n]],
  ['CRC_24_INTERLAKEN', [24, 0x328b63n, 0xffffffn, F, F, 0xffffffn, 0xb4f3e6n]],
  ['CRC_24_LTE_A', [24, 0x864cfbn, 0x000000n, F, F, 0x000000n, 0xcde703n]],
  ['CRC_24_LTE_B', [24, 0x800063n, 0x000000n, F, F, 0x000000n, 0x23ef52n]],
  ['CRC_24_OPENPGP', [24, 0x864cfbn, 0xb704cen, F, F, 0x000000n, 0x21cf02n]],
  ['CRC_24_OS_9', [24, 0x800063n, 0xffffffn, F, F, 0xffffffn, 0x200fa5n]],
  ['CRC_30_CDMA', [30, 0x2030b9c7n, 0x3fffffffn, F, F, 0x3fffffffn, 0x04c34abfn]],
  ['CRC_31_PHILIPS', [31, 0x04c11db7n, 0x7fffffffn, F, F, 0x7fffffffn, 0x0ce9e46cn]],
  ['CRC_32_AIXM', [32, 0x814141abn, 0x00000000n, F, F, 0x00000000n, 0x3010bf7fn]],
  ['CRC_32_AUTOSAR', [32, 0xf4acfb13n, 0xffffffffn, T, T, 0xffffffffn, 0x1697d06an]],
  ['CRC_32_BASE91_D', [32, 0xa833982bn, 0xffffffffn, T, T, 0xffffffffn, 0x87315576n]],
  ['CRC_32_BZIP2', [32, 0x04c11db7n, 0xffffffffn, F, F, 0xffffffffn, 0xfc891918n]],
  ['CRC_32_CD_ROM_EDC', [32, 0x8001801bn, 0x00000000n, T, T, 0x00000000n, 0x6ec2edc4n]],
  ['CRC_32_CKSUM', [32, 0x04c11db7n, 0x00000000n, F, F, 0xffffffffn, 0x765e7680n]],
  ['CRC_32_ISCSI', [32, 0x1edc6f41n, 0xffffffffn, T, T, 0xffffffffn, 0xe3069283n]],
  ['CRC_32_ISO_HDLC', [32, 0x04c11db7n, 0xffffffffn, T, T, 0xffffffffn, 0xcbf43926n]],
  ['CRC_32_JAMCRC', [32, 0x04c11db7n, 0xffffffffn, T, T, 0x00000000n, 0x340bc6d9n]],
  ['CRC_32_MEF', [32, 0x741b8cd7n, 0xffffffffn, T, T, 0x00000000n, 0xd2c22f51n]],
  ['CRC_32_MPEG_2', [32, 0x04c11db7n, 0xffffffffn, F, F, 0x00000000n, 0x0376e6e7n]],
  ['CRC_32_XFER', [32, 0x000000afn, 0x00000000n, F, F, 0x00000000n, 0xbd0be338n]],
  ['CRC_40_GSM', [40, 0x0004820009n, 0x0000000000n, F, F, 0xffffffffffn, 0xd4164fc646n]],
  ['CRC_64_ECMA_182', [64, 0x42f0e1eba9ea3693n, 0x0n, F, F, 0x0n, 0x6c40df5f0b497347n]],
  ['CRC_64_GO_ISO', [64, 0x000000000000001bn, 0xffffffffffffffffn, T, T, 0xffffffffffffffffn, 0xb90956c775a41001n]],
  ['CRC_64_MS', [64, 0x259c84cba6426349n, 0xffffffffffffffffn, T, T, 0x0n, 0x75d4b74f024eceean]],
  ['CRC_64_REDIS', [64, 0xad93d23594c935a9n, 0x0n, T, T, 0x0n, 0xe9c6d914c4b8d9can]],
  ['CRC_64_WE', [64, 0x42f0e1eba9ea3693n, 0xffffffffffffffffn, F, F, 0xffffffffffffffffn, 0x62ec59e3f1a4f00an]],
  ['CRC_64_XZ', [64, 0x42f0e1eba9ea3693n, 0xffffffffffffffffn, T, T, 0xffffffffffffffffn, 0x995dc9bbdf1939fan]],
  ['CRC_82_DARC', [82, 0x0308c0111011401440411n, 0x0n, T, T, 0x0n, 0x09ea83f625023801fd612n]],
]);

function reflect(value: bigint, width: number): bigint {
  let out = 0n;
  for (let i = 0; i < width; i++, value >>= 1n) out = (out << 1n) | (value & 1n);
  return out;
}

interface Engine {
  table: bigint[];
  /** Register width: the CRC width, at least 8 for unreflected CRCs (narrow ones are kept left-aligned). */
  registerWidth: number;
  mask: bigint;
}

const engines = new Map<string, Engine>();

function engineFor(name: string, [width, poly, , refin]: Params): Engine {
  let engine = engines.get(name);
  if (engine !== undefined) return engine;
  const registerWidth = refin ? width : Math.max(width, 8);
  const mask = (1n << BigInt(registerWidth)) - 1n;
  const top = 1n << BigInt(registerWidth - 1);
  const shiftedPoly = refin ? reflect(poly, width) : poly << BigInt(registerWidth - width);
  const table: bigint[] = [];
  for (let byte = 0n; byte < 256n; byte++) {
    let crc = refin ? byte : byte << BigInt(registerWidth - 8);
    for (let bit = 0; bit < 8; bit++) {
      if (refin) crc = crc & 1n ? (crc >> 1n) ^ shiftedPoly : crc >> 1n;
      else crc = crc & top ? ((crc << 1n) ^ shiftedPoly) & mask : (crc << 1n) & mask;
    }
    table.push(crc);
  }
  engine = { table, registerWidth, mask };
  engines.set(name, engine);
  return engine;
}

/** The CRC of `bytes` by a catalogue algorithm (a name of CRC_CATALOGUE). */
export function crc(name: string, bytes: Uint8Array): bigint {
  const params = CRC_CATALOGUE.get(name)!;
  const [width, , init, refin, refout, xorout] = params;
  const { table, registerWidth, mask } = engineFor(name, params);
  const shift = BigInt(registerWidth - width);
  let value = refin ? reflect(init, width) : init << shift;
  if (refin) {
    for (const byte of bytes) value = (value >> 8n) ^ table[Number((value ^ BigInt(byte)) & 0xffn)]!;
  } else {
    const high = BigInt(registerWidth - 8);
    for (const byte of bytes) value = ((value << 8n) & mask) ^ table[Number(((value >> high) ^ BigInt(byte)) & 0xffn)]!;
    value >>= shift;
  }
  if (refin !== refout) value = reflect(value, width);
  return value ^ xorout;
}
