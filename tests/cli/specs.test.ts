// labctl specs export / import (issue 26): a round trip, per-line problems with nothing written, the
// dry run, and the refusal of a version that would judge a released result differently.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';

describe(`labctl specs (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase, 'each');
  const file = (name: string, text?: string) => {
    const p = path.join(lab.dataDir, name);
    if (text !== undefined) fs.writeFileSync(p, text);
    return p;
  };
  const count = async () => Number((await lab.database.db('specifications').count({ n: '*' }))[0].n);

  it('exports every version and imports the same file back as unchanged', async () => {
    const out = file('specs.csv');
    const exported = await lab.run(['specs', 'export', '--out', out]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const lines = fs.readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,analyte,version,sampleCategory,species,purpose,kind,unit,lod,loq,lowerLimit,upperLimit,warningLevel,n,c,m,M,source,validFrom,validTo,supersedes,createdBy,createdAt');
    expect(lines).toHaveLength(1 + (await count()));
    expect(lines.find((l) => l.includes(',chloramphenicol,'))).toMatch(/,chloramphenicol,1,,,,quantitative,µg\/kg,0.05,0.1,,0.15,,,,,,"?Regulation \(EU\) 2019\/1871/);

    const before = await count();
    const again = await lab.run(['specs', 'import', out, '--as', 'staff@demo.lab', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ imported: true, dryRun: false, added: [], unchanged: before });

    // A new version: the dry run writes nothing; the import adds it, and the next export has it.
    const chloramphenicol = lines.find((l) => l.includes(',chloramphenicol,'))!;
    const id = chloramphenicol.split(',')[0];
    const newVersion = chloramphenicol.replace(/^\d+,chloramphenicol,1,/, ',chloramphenicol,,').replace(',0.15,', ',0.2,').replace(/,,(labctl migrate[^,]*),[^,]*$/, `,${id},,`);
    const edited = file('edited.csv', `${lines.join('\r\n')}\r\n${newVersion}\r\n`);
    const dry = await lab.run(['specs', 'import', edited, '--as', 'staff@demo.lab', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`line ${lines.length + 1}: chloramphenicol version 2 would be added`);
    expect(await count()).toBe(before);
    const done = await lab.run(['specs', 'import', edited, '--as', 'staff@demo.lab']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toContain(`1 new specification added; ${before} unchanged.`);
    const exportedAgain = await lab.run(['specs', 'export', '--json']);
    expect(JSON.parse(exportedAgain.stdout).items.filter((s: { analyte: string }) => s.analyte === 'chloramphenicol').map((s: { version: number; upperLimit: number }) => [s.version, s.upperLimit]))
      .toEqual([[1, 0.15], [2, 0.2]]);
    const audited = await lab.database.db('audit_log').where({ action: 'specification.create' }).select('details');
    expect(audited.map((a) => JSON.parse(a.details)).map((d) => [d.specification.analyte, d.specification.version, d.supersedes, d.source])).toEqual([['chloramphenicol', 2, Number(id), edited]]);
  });

  it('lists every problem with its line and writes nothing', async () => {
    const header = 'analyte,sampleCategory,species,purpose,kind,unit,lod,loq,lowerLimit,upperLimit,warningLevel,n,c,m,M,source,validFrom,validTo';
    const bad = file('bad.csv', [
      header,
      'ractopamine,Monitoring,,,quantitative,µg/kg,0.5,1,,5,,,,,,Monitoring plan 2026,2026-01-01,',
      'ractopamine,,,,quantitative,µg/kg,0.5,1,,ten,,,,,,Codex,2026-01-01,',
      'ractopamine,Monitoring,,,quantitative,µg/kg,0.5,1,,4,,,,,,Monitoring plan 2026,2026-06-01,',
      'chloramphenicol,Walk-in,,,quantitative,µg/kg,0.05,0.3,,0.15,,,,,,Regulation (EU) 2019/1871,2026-01-01,',
      'unicorn,,,,qualitative,,,,,,,,,,,Nothing,2026-01-01,',
    ].join('\n'));
    const before = await count();
    const res = await lab.run(['specs', 'import', bad, '--as', 'staff@demo.lab']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('line 3: upperLimit must be a number');
    expect(res.stderr).toContain('line 4: The dates overlap version 1 of ractopamine for the same scope (2026-01-01 to open)');
    expect(res.stderr).toContain('line 5: upperLimit 0.15 is below the LOQ 0.3');
    expect(res.stderr).toContain('line 6: unicorn is not a test of the catalogue');
    expect(res.stderr).toContain(`4 problems in ${bad}; nothing was imported.`);
    expect(res.stderr).not.toContain('line 2:');
    expect(await count()).toBe(before);

    const tester = await lab.run(['specs', 'import', bad, '--as', 'chemtester@demo.lab']);
    expect(tester.exitCode).toBe(1);
    expect(tester.stderr).toContain('only staff and admin accounts manage specifications');
  });

  it('refuses a version that would judge a released result differently', async () => {
    const db = lab.database.db;
    const horse = await db('specifications').where({ analyte: 'horse' }).first('id', 'version');
    const released = await db('analyses as a').join('requests as r', 'r.id', 'a.request_id').where({ 'r.status': 'RELEASED', 'a.test_code': 'horse' }).first('a.id', 'r.control_number');
    await db('analyses').where({ id: released.id }).update({
      measured_value: 2, measured_unit: '% w/w', decision_outcome: 'does_not_conform', decision_reason: '2 % w/w is above the limit 1 % w/w',
      specification_id: horse.id, specification_version: horse.version, decision_rule: 'simple', expected_remark: 'positive', analysis_date: '2026-03-06',
    });
    const header = 'analyte,sampleCategory,species,purpose,kind,unit,lod,loq,lowerLimit,upperLimit,warningLevel,n,c,m,M,source,validFrom,validTo,supersedes';
    const looser = file('looser.csv', `${header}\nhorse,,,,quantitative,% w/w,0.01,0.1,,5,,,,,,Recommendation 2013/99/EU (corrected),2010-01-01,,${horse.id}\n`);
    const res = await lab.run(['specs', 'import', looser, '--as', 'staff@demo.lab', '--json']);
    expect(res.exitCode).toBe(1);
    expect(JSON.parse(res.stdout).problems).toEqual([{
      line: 2,
      message: `would change the released decision of ${released.control_number} sample 1 horse (does not conform -> conforms): released decisions change only by re-evaluation; start this version after 2026-03-06, or add it in the portal and re-evaluate the request`,
    }]);
    // From a later date it judges only later analyses: accepted.
    const later = file('later.csv', `${header}\nhorse,,,,quantitative,% w/w,0.01,0.1,,5,,,,,,Recommendation 2013/99/EU (corrected),2026-03-21,,${horse.id}\n`);
    expect((await lab.run(['specs', 'import', later, '--as', 'staff@demo.lab'])).exitCode).toBe(0);
  });
});
