// The rules live in shared/ (the worker validates too); re-exported for the supervisor's modules.
export * from '../../shared/artifact-rules.ts';
