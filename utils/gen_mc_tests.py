#!/usr/bin/env python3
"""Drafts test/MC/SM86/<family>.sass and .txt from the reference TSVs.

For each family, up to 14 rows per mnemonic with distinct operand shapes are
taken from shared/reference/sm_{86,80}.encodings_addr.tsv.  The .sass test
assembles NVIDIA's text and checks the TSV word with tp-mc's default control
bits (stall 0, bit 109 = 1, no scoreboards) and bit 101 cleared; the .txt test
disassembles the TSV word (control bits zeroed there) back to the text.  Like
LLVM's update_*_test_checks.py, this only drafts: the checks come from
NVIDIA's bytes, not from tp-mc's output.  Run from the repository root with
../shared next to it:  python3 utils/gen_mc_tests.py
"""
import os
SHARED = os.environ.get('TP_SHARED_DIR', '../shared')
import re, collections
fam = {
 'integer': ['IMAD','IADD3','LOP3','MOV','IABS','SEL','IMNMX','SHF','LEA','ISETP','PRMT','PLOP3','POPC','VOTE'],
 'memory': ['LDG','STG','LDS','STS','LDSM','LDGSTS','LDGDEPBAR','DEPBAR'],
 'control': ['BRA','EXIT','NOP','BAR','BSSY','BSYNC','WARPSYNC'],
 'special': ['S2R','S2UR','CS2R'],
 'mma': ['HMMA'],
 'uniform': ['UIADD3','UIMAD','ULOP3','USEL','USHF','ULEA','UISETP','UMOV','ULDC','VOTEU','R2UR'],
 'float': ['FADD','FMUL','FFMA','FSETP','I2FP','I2F','F2F','F2FP','HADD2','HFMA2','HMUL2','FSEL','FMNMX','MUFU','F2I'],
}
rows=[]
for f in ['sm_86.encodings_addr.tsv','sm_80.encodings_addr.tsv']:
  for l in open('' + SHARED + '/reference/'+f):
    if l.startswith('#'): continue
    k,e,t,a=l.rstrip('\n').split('\t')[:4]
    rows.append((e,t,int(a,16)))
def mn(t):
  t=re.sub(r'^@!?U?P[0-6T] ','',t); return t.split(' ')[0]
CTRL=((1<<17)-1)<<105
DEFAULT=(7<<110)|(7<<113)|(1<<109)
for name, mns in fam.items():
  picked=[]
  for m in mns:
    cands=[r for r in rows if mn(r[1]).split('.')[0]==m]
    byshape=collections.OrderedDict()
    for r in cands:
      shape=re.sub(r'U?R[0-9]+','R',re.sub(r'0x[0-9a-f]+','I',r[1]))
      shape=re.sub(r'U?P[0-6]','P',shape)
      byshape.setdefault(shape,r)
    picked+=list(byshape.values())[:14]
  asm=open('test/MC/SM86/%s.sass'%name,'w')
  dis=open('test/MC/SM86/%s.txt'%name,'w')
  asm.write('# %s family: assemble with encodings (rows of the reference TSVs,\n# NVIDIA disassembler text; the expected words are the TSV words with tp-mc\'s\n# default control bits and bit 101 = 0).  The matching disassembly test is\n# %s.txt.\n# RUN: tp-mc --assemble --show-encoding %%s | FileCheck %%s\n\n' % (name.capitalize(), name))
  dis.write('# %s family: disassemble the words of the reference TSVs (control\n# bits zeroed there: {yield wr=0 rd=0}) back to NVIDIA\'s text.\n# RUN: tp-mc --disassemble --show-control %%s | FileCheck %%s\n\n' % name.capitalize())
  for e,t,a in picked:
    v=int(e,16)
    exp=(v & ~CTRL & ~(1<<101)) | DEFAULT
    asm.write('/*%04x*/ %s\n# CHECK: %s // encoding: 0x%032x\n' % (a, t, t, exp))
    dis.write('/*%04x*/ %s\n# CHECK: %s {yield wr=0 rd=0}\n' % (a, e, t))
