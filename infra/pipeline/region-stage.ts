import { Stage, type StageProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { addRegionStacks, type RegionInputs, type RegionStacks } from '../stacks/region-stacks.js';

export interface RegionStageProps extends StageProps {
  inputs: RegionInputs;
}

/** One region as a pipeline stage: the same two stacks, with the same stack names, as a manual deploy. */
export class RegionStage extends Stage {
  readonly stacks: RegionStacks;

  constructor(scope: Construct, id: string, props: RegionStageProps) {
    super(scope, id, props);
    this.stacks = addRegionStacks(this, '', props.inputs);
  }
}
