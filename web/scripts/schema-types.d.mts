export function tsType(node: unknown, indent?: string): string;
export function generate(schema: Record<string, unknown>, source: string): string;
export function schemaDir(): string;
export function outputs(dir?: string): [string, string, string][];
