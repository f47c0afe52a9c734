import type { XMLParser as Parser } from 'fast-xml-parser';
import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { booleanArg, stringArg } from './support/args.js';
import { library } from './support/library.js';

interface XmlOptions {
  includeAttr: boolean;
  attrPrefix: string;
  textKey: string;
  alwaysUseTextKey: boolean;
  parseBool: boolean;
  parseNull: boolean;
  parseNumber: boolean;
}

/** One node of fast-xml-parser's ordered output: `{ tag: children, ':@': attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

const TEXT = '#text';
const COMMENT = '#comment';
const ATTRIBUTES = ':@';

const xml = library<typeof import('fast-xml-parser')>('fast-xml-parser');
let parser: Parser | undefined;
const newParser = () =>
  new (xml().XMLParser)({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    commentPropName: COMMENT,
    processEntities: true,
    htmlEntities: false,
  });

/**
 * `parse_xml(value, trim = true, include_attr = true, attr_prefix = "@", text_key = "text",
 * always_use_text_key = false, parse_bool = true, parse_null = true, parse_number = true)`: VRL's walk over
 * the document (its `process_node`): an element becomes an object of its attributes (prefixed) and children
 * (repeated names collect arrays, text under `text_key`), flattened to its only child when it has no
 * attributes; text becomes null, a boolean or a number when the options say so.
 */
export const parse_xml: JsFunction = ([
  value,
  trim,
  includeAttr,
  attrPrefix,
  textKey,
  alwaysUseTextKey,
  parseBool,
  parseNull,
  parseNumber,
]) => {
  let text = stringArg(value!);
  if (booleanArg(trim!, true)) text = text.replace(/>\s+</g, '><');
  const options: XmlOptions = {
    includeAttr: booleanArg(includeAttr!, true),
    attrPrefix: attrPrefix === null ? '@' : stringArg(attrPrefix!),
    textKey: textKey === null ? 'text' : stringArg(textKey!),
    alwaysUseTextKey: booleanArg(alwaysUseTextKey!, false),
    parseBool: booleanArg(parseBool!, true),
    parseNull: booleanArg(parseNull!, true),
    parseNumber: booleanArg(parseNumber!, true),
  };
  const valid = xml().XMLValidator.validate(text);
  if (valid !== true) throw new Error(`unable to parse xml: ${valid.err.msg} at ${valid.err.line}:${valid.err.col}`);
  const root = (parser ??= newParser()).parse(text) as XmlNode[];
  return childrenObject(root, {}, options);
};

function tagOf(node: XmlNode): string {
  return Object.keys(node).find((key) => key !== ATTRIBUTES)!;
}

function attributesOf(node: XmlNode): Record<string, string> {
  return (node[ATTRIBUTES] as Record<string, string> | undefined) ?? {};
}

/** The object of an element's attributes and its element and text children. */
function childrenObject(
  children: XmlNode[],
  attributes: Record<string, string>,
  options: XmlOptions,
): Record<string, RemapValue> {
  const object: Record<string, RemapValue> = Object.create(null);
  if (options.includeAttr) for (const [name, v] of Object.entries(attributes)) object[options.attrPrefix + name] = v;
  for (const child of children) {
    const tag = tagOf(child);
    if (tag === COMMENT) continue;
    const key = tag === TEXT ? options.textKey : tag;
    const v = processNode(child, options);
    const previous = object[key];
    if (previous === undefined) object[key] = v;
    else if (Array.isArray(previous)) previous.push(v);
    else object[key] = [previous, v];
  }
  return object;
}

function processNode(node: XmlNode, options: XmlOptions): RemapValue {
  const tag = tagOf(node);
  if (tag === TEXT) return processText(String(node[TEXT]), options);
  const children = node[tag] as XmlNode[];
  const attributes = attributesOf(node);
  const hasAttributes = Object.keys(attributes).length > 0;
  if ((hasAttributes && options.includeAttr) || (options.alwaysUseTextKey && !hasAttributes)) {
    return childrenObject(children, attributes, options);
  }
  if (children.length === 0) return '';
  if (children.length > 1) return childrenObject(children, attributes, options);
  const only = children[0]!;
  const onlyTag = tagOf(only);
  if (onlyTag === TEXT) return processNode(only, options);
  if (onlyTag === COMMENT) return childrenObject([], attributes, options);
  const object: Record<string, RemapValue> = Object.create(null);
  object[onlyTag] = processNode(only, options);
  return object;
}

const INTEGER = /^[+-]?\d+$/;
/** Rust's `f64::from_str`: decimal or exponent notation, `inf`, `infinity` and `nan` in any case. */
const FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;

function processText(text: string, options: XmlOptions): RemapValue {
  if (options.parseNull && (text === '' || text === 'null')) return null;
  if (options.parseBool && text === 'true') return true;
  if (options.parseBool && text === 'false') return false;
  if (!options.parseNumber) return text;
  if (INTEGER.test(text)) {
    const n = BigInt(text);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return n;
  }
  if (FLOAT.test(text)) {
    const f = /nan/i.test(text) ? 0 : /inf/i.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
    return f;
  }
  return text;
}
