// Types of leftover-processes.mjs for the tests that import it.
export declare const MARKER: 'LAB_TEST_RUN';
export declare function newRunId(): string;
export declare function canSearch(): boolean;
export declare function leftoverProcesses(runId: string, root: string, since?: number): { pid: number; command: string }[];
export declare function lingeringProcesses(runId: string, root: string, graceMs?: number): Promise<{ pid: number; command: string }[]>;
