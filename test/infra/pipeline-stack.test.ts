import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { infraConfig } from '../../infra/config.js';
import { regionStackNames } from '../../infra/stacks/region-stacks.js';
import { buildTestApp } from './infra-support.js';

interface Action {
  Name: string;
  RunOrder: number;
  Region?: string;
  ActionTypeId: { Provider: string };
  Configuration: Record<string, unknown>;
}
interface PipelineStage {
  Name: string;
  Actions: Action[];
}

const { built } = buildTestApp({ nag: false });
if (!built.pipeline) throw new Error('no pipeline');
const template = Template.fromStack(built.pipeline);
const pipelines = Object.values(template.findResources('AWS::CodePipeline::Pipeline'));
const stages = (pipelines[0]?.Properties.Stages ?? []) as PipelineStage[];

const deployedStacks = (stage: PipelineStage): string[] =>
  stage.Actions.filter((a) => a.ActionTypeId.Provider === 'CloudFormation' && a.Configuration.ActionMode === 'CHANGE_SET_EXECUTE')
    .sort((a, b) => a.RunOrder - b.RunOrder)
    .map((a) => String(a.Configuration.StackName));

describe('deploy pipeline', () => {
  it('is a single pipeline in the configured account and region', () => {
    expect(pipelines).toHaveLength(1);
    expect(built.pipeline?.account).toBe(infraConfig.account);
    expect(built.pipeline?.region).toBe(infraConfig.pipeline.region);
  });

  it('takes its source from the configured connection, repository and branch', () => {
    const source = stages[0];
    expect(source?.Name).toBe('Source');
    expect(source?.Actions[0]).toMatchObject({
      ActionTypeId: { Provider: 'CodeStarSourceConnection' },
      Configuration: {
        ConnectionArn: infraConfig.pipeline.connectionArn,
        FullRepositoryId: infraConfig.pipeline.repository,
        BranchName: infraConfig.pipeline.branch,
      },
    });
  });

  it('installs, runs the tests and synthesizes in one build step, with Java for DynamoDB Local', () => {
    template.hasResourceProperties('AWS::CodeBuild::Project', {
      Environment: Match.objectLike({
        EnvironmentVariables: Match.arrayWith([{ Name: 'CDK_DISABLE_CLI_TELEMETRY', Type: 'PLAINTEXT', Value: 'true' }]),
      }),
      Source: {
        BuildSpec: Match.serializedJson(
          Match.objectLike({
            phases: Match.objectLike({
              install: { 'runtime-versions': { nodejs: '20', java: Match.stringLikeRegexp('corretto') } },
              build: { commands: ['npm ci', 'npm test', 'npx cdk synth'] },
            }),
          }),
        ),
        Type: 'CODEPIPELINE',
      },
    });
  });

  it('updates itself, publishes the bundles, then deploys api first and us1 and as1 after it', () => {
    const names = stages.map((s) => s.Name);
    expect(names.slice(0, 4)).toEqual(['Source', 'Build', 'UpdatePipeline', 'Assets']);
    const deployStages = stages.slice(4);
    expect(deployStages).toHaveLength(infraConfig.pipeline.deployOrder.length);
    infraConfig.pipeline.deployOrder.forEach((labels, index) => {
      const stage = deployStages[index];
      if (!stage) throw new Error(`no stage ${index}`);
      const deployed = deployedStacks(stage);
      for (const label of labels) {
        const cluster = infraConfig.clusters.find((c) => c.label === label);
        if (!cluster) throw new Error(label);
        const names = regionStackNames(infraConfig, cluster);
        expect(deployed.indexOf(names.stateful), `${label} stateful`).toBeGreaterThanOrEqual(0);
        expect(deployed.indexOf(names.stateful), `${label} stateful before stateless`).toBeLessThan(deployed.indexOf(names.stateless));
        const regions = stage.Actions.filter((a) => String(a.Configuration.StackName).startsWith(`${infraConfig.appName}-${label}-`)).map((a) => a.Region);
        expect(new Set(regions), label).toEqual(new Set([cluster.region === infraConfig.pipeline.region ? undefined : cluster.region]));
      }
    });
    expect(deployStages[0] && deployedStacks(deployStages[0])).toEqual(['PromoEngine-api-Stateful', 'PromoEngine-api-Stateless']);
  });

  it('publishes all bundles from one project, whatever the number of routes', () => {
    const assets = stages.find((s) => s.Name === 'Assets');
    expect(assets?.Actions).toHaveLength(1);
  });

  it('deploys the same stack names a manual deploy uses', () => {
    const manual = [...built.regions.values()].flatMap((r) => [r.stateful.stackName, r.stateless.stackName]).sort();
    const piped = stages.slice(4).flatMap(deployedStacks).sort();
    expect(piped).toEqual(manual);
  });
});
