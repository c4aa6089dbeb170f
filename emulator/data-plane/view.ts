/**
 * What the rest of the emulator asks of the data plane through `ctx.data` (`DataPlane` implements
 * it): a type of its own, so that `context.ts` does not import the plane, which takes the context.
 */
import type { AdvisorIssue } from "@neon/sdk/raw";
import type { BranchRecord, MaskingRuleRecord } from "../records";
import type { CopyOptions, DataHolder } from "./databases";
import type { MaskingResult } from "./masking";

export interface DataPlaneView {
  /** The CA that signs the endpoints' certificates (PEM). */
  readonly caCertificate: string;
  /** Where endpoint `endpointId` is served (`pooled`: its pooler), when it is. */
  address(endpointId: string, pooled: boolean): { host: string; port: number } | undefined;
  databasesOf(holder: DataHolder): Map<string, string>;
  copyData(target: DataHolder, sources: Map<string, string>, options?: CopyOptions): void;
  mask(branch: BranchRecord, rules: MaskingRuleRecord[], seed: string): Promise<MaskingResult>;
  lsnAt(ms: number): string;
  timeAt(lsn: string): number;
  noteTime(): Promise<void>;
  sync(): Promise<void>;
  schemaAt(branch: BranchRecord, databaseId: number, atLsn?: string): Promise<string>;
  advisorIssuesOf(branch: BranchRecord, databaseId: number): Promise<AdvisorIssue[]>;
  stop(): Promise<void>;
}
