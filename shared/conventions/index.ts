/** Conventions in one import: presets, lock-key formatting and parsing, classification, detection and the convention file. */
export { formatLockKey, VALUE_PLACEHOLDER, type LockKeyText } from './format';
export { normalizeValue } from './normalize';
export {
  awsBlogConvention,
  markerConvention,
  onetableConvention,
  PRESET_DEFAULTS,
  PRESET_KEYS,
  presetConvention,
  uniqConvention,
  SCOPE_PLACEHOLDER,
  type PresetOptions,
  type PresetRuleSpec,
} from './presets';
export { compileConvention, parseLockKey, type CompiledConvention, type ParsedLockKey } from './parse';
export { classifyItem, type AccountValue, type ItemClass } from './classify';
export { detectConvention, type DetectOptions, type Detection } from './detect';
export { checkConvention, conventionFileSchema, conventionToFile, parseConventionFile, type ConventionFile } from './file';
