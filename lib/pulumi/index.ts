export * from './application';
export * from './options';
export * from './stack-config';
export * from './automation';
