/* parser.y — the .tlop grammar. A pure parser with byte-offset locations; actions are
 * one-line calls to the ast_* constructors of src/front/ast.c, and the checker (not the grammar)
 * gives meaning. `error ';'` and `error '}'` recover so one run reports several mistakes.
 * The first token (START_FILE or START_EXPR) picks a whole file or one expression. */
%require "3.8"
%expect 0 /* no shift/reduce conflict: bison fails the build on one */
%define api.pure full
%define api.prefix {tlop_yy}
%define parse.error custom
%define parse.lac full
%locations
%param {void *scanner}
%parse-param {parse_state *ps}

%code requires {
#include "front/front.h"
typedef struct tlop_yyltype { uint32_t lo, hi; } TLOP_YYLTYPE;
#define TLOP_YYLTYPE_IS_DECLARED 1
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                             \
  do {                                                                         \
    if (N) {                                                                   \
      (Cur).lo = YYRHSLOC(Rhs, 1).lo;                                          \
      (Cur).hi = YYRHSLOC(Rhs, N).hi;                                          \
    } else {                                                                   \
      (Cur).lo = (Cur).hi = YYRHSLOC(Rhs, 0).hi;                               \
    }                                                                          \
  } while (0)
}

%code provides {
int tlop_yylex(TLOP_YYSTYPE *lval, TLOP_YYLTYPE *lloc, void *scanner);
}

%code {
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define SP(l) ((span){ps->src, (l).lo, (l).hi})
/* Bison's own stack bound; past it the input is nested beyond any real model. A level of
 * nesting takes at most a few entries: room for the deepest --max-depth. */
#define YYMAXDEPTH (5 * IR_MAX_DEPTH)
static ast_arg *arg_new(parse_state *ps, sym name, kind k, TLOP_YYLTYPE l);
static ast_decl *fn_decl(parse_state *ps, ast_dkind dk, sym name, TLOP_YYLTYPE nl,
                         ast_list *args, ast_expr *body, TLOP_YYLTYPE l);
static kind kind_named(parse_state *ps, sym name, TLOP_YYLTYPE l);
static ast_expr *label(parse_state *ps, ast_expr *e, const char *text);
static ast_expr *literal(parse_state *ps, double v, kind k, TLOP_YYLTYPE l);
static ast_expr *ranged(parse_state *ps, bool is_max, sym index, TLOP_YYLTYPE il, ast_expr *lo,
                        ast_expr *hi, ast_expr *body, TLOP_YYLTYPE l);
static ast_expr *juxtaposed(parse_state *ps, double v, TLOP_YYLTYPE nl, ast_expr *e, TLOP_YYLTYPE el);
static ast_expr *ast_schedule(parse_state *ps, sym transfer, sym channel, ast_expr *size,
                              ast_list *statements, TLOP_YYLTYPE tl, span sp);
static ast_expr *ast_messages(parse_state *ps, sym mapping, ast_list *args, ast_list *statements,
                              TLOP_YYLTYPE ml, span sp);
static ast_expr *ast_messages_priced(parse_state *ps, ast_expr *e, sym priced, span priced_sp);
static ast_expr *ast_flows(parse_state *ps, ast_expr *cuts, ast_expr *alone, ast_list *statements,
                           span sp);
static void tlop_yyerror(TLOP_YYLTYPE *l, void *scanner, parse_state *ps, const char *msg);
}

%union {
  double num;
  struct { double scale; kind k; } unit;
  sym name;
  char *str;
  ast_expr *expr;
  ast_list *list;
  ast_decl *decl;
  ast_arg *arg;
  kind k;
  bool flag;
}

%token START_FILE START_EXPR START_FACTS
%token <name> IDENT "identifier"
%token <num> NUMBER "number"
%token <unit> UNIT "unit"
%token <str> STRING "string"
%token IMPORT "'import'" PARAM "'param'" FN "'fn'" ALGORITHM "'algorithm'"
%token PLATFORM "'platform'" CHANNEL "'channel'" TABLE "'table'"
%token ASSUME "'assume'" CLAIM "'claim'" STRICT "'strict'" WHEN "'when'" AXIOM "'axiom'"
%token <name> AXIOM_NAME "axiom name"
%token LET "'let'" IN "'in'" IF "'if'" THEN "'then'" ELSE "'else'"
%token TRUE "'true'" FALSE "'false'"
%token SUM "'sum'" STAGES "'stages'" REPEAT "'repeat'" GAMMA "'gamma'"
%token SCHEDULE "'schedule'" FOR "'for'" AT "'at'"
%token MESSAGES "'messages'" SEND "'send'" ON "'on'" ARROW "'->'"
%token FLOWS "'flows'" UNDER "'under'" ALONE "'alone'"
%token AND "'and'" OR "'or'" NOT "'not'"
%token PAR "'∥'" DOTDOT "'..'" LE "'<='" GE "'>='" EQEQ "'=='" NE "'!='"
%token CEIL_OPEN "'⌈'" CEIL_CLOSE "'⌉'" FLOOR_OPEN "'⌊'" FLOOR_CLOSE "'⌋'"
%token SIGMA_OPEN "'Σ_{'" LOG2_SUB "'log₂'" MAX_OVER "'max'" MAX_OPEN "'max_{'"

%type <expr> expr primary named arg stage_item fact
%type <expr> statement opt_under opt_alone opt_start
%type <list> args opt_args stage_items facts statements
%type <decl> decl decls members member chan_defs chan_def
%type <arg> formal
%type <list> formals opt_formals
%type <k> opt_kind
%type <flag> opt_strict
%type <list> opt_when

%precedence ELSE IN ':'
%left OR
%left AND
%precedence NOT
%nonassoc '<' '>' LE GE EQEQ NE
%right PAR
%left '+' '-'
%precedence SIGMA /* the papers' Σ_{i=a}^{b} takes a product as its body */
%left '*' '/' '%'
%precedence UMINUS
%right '^'

%%

top:
    START_FILE decls          { ps->decls = $2; }
  | START_EXPR expr           { ps->expr = $2; }
  | START_FACTS facts         { ps->facts = $2; }
  ;

/* Declarations are collected in reverse and put in order by parse_file. */
decls:
    %empty                    { $$ = NULL; }
  | decls decl                { $$ = $2 ? ($2->next = $1, $2) : $1; }
  ;

decl:
    IMPORT STRING ';'         { $$ = ast_decl_new(ps, D_IMPORT, SP(@$)); $$->path = $2; $$->path_sp = SP(@2); }
  | PARAM IDENT opt_kind ';'  { $$ = ast_decl_new(ps, D_PARAM, SP(@$)); $$->name = $2; $$->name_sp = SP(@2); $$->k = $3; }
  | PARAM IDENT opt_kind '=' expr ';' {
                                $$ = ast_decl_new(ps, D_PARAM, SP(@$)); $$->name = $2; $$->name_sp = SP(@2);
                                $$->k = $3; $$->body = $5; }
  | FN IDENT '(' opt_formals ')' opt_kind '=' expr ';' {
                                $$ = fn_decl(ps, D_FN, $2, @2, $4, $8, @$); $$->k = $6; }
  | ALGORITHM IDENT '(' opt_formals ')' '=' expr ';' {
                                $$ = fn_decl(ps, D_ALGORITHM, $2, @2, $4, $7, @$); }
  | PLATFORM IDENT '{' members '}' {
                                $$ = ast_decl_new(ps, D_PLATFORM, SP(@$)); $$->name = $2; $$->name_sp = SP(@2);
                                $$->members = ast_decls_array(ps, $4, &$$->nmembers); }
  | ASSUME facts ';'          { $$ = ast_decl_new(ps, D_ASSUME, SP(@$)); $$->facts = ast_exprs_array(ps, $2, &$$->nfacts); }
  | AXIOM AXIOM_NAME ';'      { $$ = ast_decl_new(ps, D_AXIOM, SP(@$)); $$->name = $2; $$->name_sp = SP(@2); }
  | CLAIM opt_strict fact opt_when ';' {
                                $$ = ast_decl_new(ps, D_CLAIM, SP(@$)); $$->strict = $2; $$->body = $3;
                                $$->facts = ast_exprs_array(ps, $4, &$$->nfacts); }
  | error ';'                 { $$ = NULL; yyerrok; }
  | error '}'                 { $$ = NULL; yyerrok; }
  ;

opt_kind:
    %empty                    { $$ = KIND_ANY; }
  | ':' IDENT                 { $$ = kind_named(ps, $2, @2); }
  ;

opt_formals:
    %empty                    { $$ = NULL; }
  | formals
  ;

formals:
    formal                    { $$ = ast_cons(ps, $1, NULL); }
  | formals ',' formal        { $$ = ast_cons(ps, $3, $1); }
  ;

formal:
    IDENT opt_kind            { $$ = arg_new(ps, $1, $2, @1); }
  | IDENT opt_kind '=' arg    { $$ = arg_new(ps, $1, $2, @1); $$->dflt = $4; }
  ;

members:
    %empty                    { $$ = NULL; }
  | members member            { $$ = $2 ? ($2->next = $1, $2) : $1; }
  ;

member:
    CHANNEL IDENT '=' TABLE STRING ';' {
                                $$ = ast_decl_new(ps, D_CHANNEL, SP(@$)); $$->name = $2; $$->name_sp = SP(@2);
                                $$->path = $5; $$->path_sp = SP(@5); }
  | CHANNEL IDENT '=' TABLE STRING '{' chan_defs '}' {
                                $$ = ast_decl_new(ps, D_CHANNEL, SP(@$)); $$->name = $2; $$->name_sp = SP(@2);
                                $$->path = $5; $$->path_sp = SP(@5);
                                $$->members = ast_decls_array(ps, $7, &$$->nmembers); }
  | CHANNEL IDENT '{' chan_defs '}' {
                                $$ = ast_decl_new(ps, D_CHANNEL, SP(@$)); $$->name = $2; $$->name_sp = SP(@2);
                                $$->members = ast_decls_array(ps, $4, &$$->nmembers); }
  | GAMMA '=' TABLE STRING ';' {
                                $$ = ast_decl_new(ps, D_GAMMA, SP(@$)); $$->path = $4; $$->path_sp = SP(@4); }
  | GAMMA '(' opt_formals ')' '=' expr ';' {
                                $$ = fn_decl(ps, D_GAMMA, NULL, @1, $3, $6, @$); }
  | error ';'                 { $$ = NULL; yyerrok; }
  ;

chan_defs:
    %empty                    { $$ = NULL; }
  | chan_defs chan_def        { $$ = $2 ? ($2->next = $1, $2) : $1; }
  ;

chan_def:
    IDENT '(' opt_formals ')' '=' expr ';' { $$ = fn_decl(ps, D_FN, $1, @1, $3, $6, @$); }
  | error ';'                 { $$ = NULL; yyerrok; }
  ;

facts:
    fact                      { $$ = ast_cons(ps, $1, NULL); }
  | facts ',' fact            { $$ = ast_cons(ps, $3, $1); }
  ;

/* `claim strict …`: under the axiom that L is strictly increasing in τ. */
opt_strict:
    %empty                    { $$ = false; }
  | STRICT                    { $$ = true; }
  ;

/* `claim … when p >= 2`: facts assumed for this claim only. */
opt_when:
    %empty                    { $$ = NULL; }
  | WHEN facts                { $$ = $2; }
  ;

/* An assumption or claim: a comparison, where `=` also means equality. */
fact:
    expr
  | expr '=' expr             { $$ = ast_binary(ps, OP_EQ, $1, $3, SP(@$)); }
  ;

expr:
    primary
  | IF expr THEN expr ELSE expr {
                                $$ = ast_expr_new(ps, E_IF, SP(@$));
                                $$->u.cond.c = $2; $$->u.cond.t = $4; $$->u.cond.f = $6; ast_finish(ps, $$); }
  | LET IDENT '=' expr IN expr {
                                $$ = ast_expr_new(ps, E_LET, SP(@$)); $$->u.let.name = $2;
                                $$->u.let.name_sp = SP(@2); $$->u.let.value = $4; $$->u.let.body = $6; ast_finish(ps, $$); }
  | SUM IDENT '=' expr DOTDOT expr ':' expr { $$ = ranged(ps, false, $2, @2, $4, $6, $8, @$); }
  | MAX_OVER IDENT '=' expr DOTDOT expr ':' expr { $$ = ranged(ps, true, $2, @2, $4, $6, $8, @$); }
  | expr OR expr              { $$ = ast_binary(ps, OP_OR, $1, $3, SP(@$)); }
  | expr AND expr             { $$ = ast_binary(ps, OP_AND, $1, $3, SP(@$)); }
  | NOT expr                  { $$ = ast_unary(ps, OP_NOT, $2, SP(@$)); }
  | expr '<' expr             { $$ = ast_binary(ps, OP_LT, $1, $3, SP(@$)); }
  | expr '>' expr             { $$ = ast_binary(ps, OP_GT, $1, $3, SP(@$)); }
  | expr LE expr              { $$ = ast_binary(ps, OP_LE, $1, $3, SP(@$)); }
  | expr GE expr              { $$ = ast_binary(ps, OP_GE, $1, $3, SP(@$)); }
  | expr EQEQ expr            { $$ = ast_binary(ps, OP_EQ, $1, $3, SP(@$)); }
  | expr NE expr              { $$ = ast_binary(ps, OP_NE, $1, $3, SP(@$)); }
  | expr PAR expr             {
                                $$ = ast_expr_new(ps, E_PAR, SP(@$)); $$->u.par.count = $1; $$->u.par.body = $3; ast_finish(ps, $$); }
  | expr PAR '[' IDENT ']' expr %prec PAR {
                                $$ = ast_expr_new(ps, E_PAR, SP(@$)); $$->u.par.count = $1; $$->u.par.body = $6;
                                $$->u.par.channel = $4; ast_finish(ps, $$); }
  | expr '+' expr             { $$ = ast_binary(ps, OP_ADD, $1, $3, SP(@$)); }
  | expr '-' expr             { $$ = ast_binary(ps, OP_SUB, $1, $3, SP(@$)); }
  | expr '*' expr             { $$ = ast_binary(ps, OP_MUL, $1, $3, SP(@$)); }
  | expr '/' expr             { $$ = ast_binary(ps, OP_DIV, $1, $3, SP(@$)); }
  | expr '%' expr             { $$ = ast_binary(ps, OP_MOD, $1, $3, SP(@$)); }
  | '-' expr %prec UMINUS     { $$ = ast_unary(ps, OP_NEG, $2, SP(@$)); }
  | expr '^' expr             { $$ = ast_binary(ps, OP_POW, $1, $3, SP(@$)); }
  | SIGMA_OPEN IDENT '=' expr '}' '^' '{' expr '}' expr %prec SIGMA {
                                $$ = ranged(ps, false, $2, @2, $4, $8, $10, @$); }
  | MAX_OPEN IDENT '=' expr '}' '^' '{' expr '}' expr %prec SIGMA {
                                $$ = ranged(ps, true, $2, @2, $4, $8, $10, @$); }
  ;

primary:
    NUMBER                    { $$ = literal(ps, $1, KIND_NUM, @$); }
  | TRUE                      { $$ = literal(ps, 1, KIND_BOOL, @$); }
  | FALSE                     { $$ = literal(ps, 0, KIND_BOOL, @$); }
  | NUMBER UNIT               { $$ = literal(ps, $1 * $2.scale, $2.k, @$); }
  | NUMBER named              { $$ = juxtaposed(ps, $1, @1, $2, @2); }
  | named
  | LOG2_SUB IDENT            {
                                $$ = ast_call(ps, sym_intern(ps->ctx->syms, "log2", 4), NULL,
                                              ast_cons(ps, ast_name(ps, $2, SP(@2)), NULL), SP(@1), SP(@$)); }
  | LOG2_SUB '(' expr ')'     { $$ = ast_call(ps, sym_intern(ps->ctx->syms, "log2", 4), NULL, ast_cons(ps, $3, NULL), SP(@1), SP(@$)); }
  | GAMMA '(' IDENT ',' args ')' {
                                $$ = ast_call(ps, sym_intern(ps->ctx->syms, "gamma", 5), NULL, $5, SP(@1), SP(@$));
                                $$->u.call.op = $3; $$->u.call.op_lo = @3.lo; $$->u.call.op_hi = @3.hi; }
  | GAMMA '(' SUM ',' args ')' {
                                $$ = ast_call(ps, sym_intern(ps->ctx->syms, "gamma", 5), NULL, $5, SP(@1), SP(@$));
                                $$->u.call.op = sym_intern(ps->ctx->syms, "sum", 3); $$->u.call.op_lo = @3.lo; $$->u.call.op_hi = @3.hi; }
  | '(' expr ')'              { $$ = $2; }
  | CEIL_OPEN expr CEIL_CLOSE { $$ = ast_call(ps, sym_intern(ps->ctx->syms, "ceil", 4), NULL, ast_cons(ps, $2, NULL), SP(@1), SP(@$)); }
  | FLOOR_OPEN expr FLOOR_CLOSE { $$ = ast_call(ps, sym_intern(ps->ctx->syms, "floor", 5), NULL, ast_cons(ps, $2, NULL), SP(@1), SP(@$)); }
  | STAGES '{' stage_items '}' { $$ = ast_stages(ps, $3, SP(@$)); }
  | STAGES IDENT '=' expr DOTDOT expr '{' expr '}' {
                                $$ = ast_expr_new(ps, E_SUM, SP(@$)); $$->u.sum.index = $2;
                                $$->u.sum.index_sp = SP(@2); $$->u.sum.lo = $4; $$->u.sum.hi = $6;
                                $$->u.sum.body = $8; $$->u.sum.is_stage = true; ast_finish(ps, $$); }
  | SCHEDULE IDENT '(' expr ')' '{' statements '}' { $$ = ast_schedule(ps, $2, NULL, $4, $7, @2, SP(@$)); }
  | SCHEDULE IDENT '[' IDENT ']' '(' expr ')' '{' statements '}' {
                                $$ = ast_schedule(ps, $2, $4, $7, $10, @2, SP(@$)); }
  | MESSAGES ON IDENT '(' opt_args ')' '{' statements '}' {
                                $$ = ast_messages(ps, $3, $5, $8, @3, SP(@$)); }
  | MESSAGES '[' IDENT ']' ON IDENT '(' opt_args ')' '{' statements '}' {
                                $$ = ast_messages_priced(ps, ast_messages(ps, $6, $8, $11, @6, SP(@$)), $3, SP(@3)); }
  | FLOWS opt_under opt_alone '{' statements '}' {
                                $$ = ast_flows(ps, $2, $3, $5, SP(@$)); }
  | REPEAT expr '{' expr '}'  {
                                $$ = ast_expr_new(ps, E_REPEAT, SP(@$)); $$->u.repeat.count = $2;
                                $$->u.repeat.body = $4; ast_finish(ps, $$); }
  ;

/* A name, or a call: what a number may stand right before, as the papers write 2k and
 * 2L(S,1) (a product). */
named:
    IDENT                     { $$ = ast_name(ps, $1, SP(@$)); }
  | IDENT '(' opt_args ')'    { $$ = ast_call(ps, $1, NULL, $3, SP(@1), SP(@$)); }
  | IDENT '[' IDENT ']' '(' opt_args ')' { $$ = ast_call(ps, $1, $3, $6, SP(@1), SP(@$)); }
  ;

/* The statements of a schedule, collected backwards (ast_block puts them in order). */
statements:
    %empty                    { $$ = NULL; }
  | statements statement      { $$ = $2 ? ast_cons(ps, $2, $1) : $1; }
  ;

statement:
    AT expr ';'               { $$ = ast_at(ps, $2, NULL, SP(@$)); }
  | AT expr ':' expr ';'      { $$ = ast_at(ps, $2, $4, SP(@$)); }
  | SEND expr ARROW expr ':' expr opt_start ';' { $$ = ast_send(ps, $2, $4, $6, $7, SP(@$)); }
  | FOR IDENT '=' expr DOTDOT expr '{' statements '}' {
                                $$ = ast_expr_new(ps, E_SUM, SP(@$)); $$->u.sum.index = $2;
                                $$->u.sum.index_sp = SP(@2); $$->u.sum.lo = $4; $$->u.sum.hi = $6;
                                $$->u.sum.body = ast_block(ps, $8, SP(@8)); ast_finish(ps, $$); }
  | IF expr '{' statements '}' {
                                $$ = ast_expr_new(ps, E_IF, SP(@$)); $$->u.cond.c = $2;
                                $$->u.cond.t = ast_block(ps, $4, SP(@4));
                                $$->u.cond.f = ast_block(ps, NULL, SP(@5)); ast_finish(ps, $$); }
  | IF expr '{' statements '}' ELSE '{' statements '}' {
                                $$ = ast_expr_new(ps, E_IF, SP(@$)); $$->u.cond.c = $2;
                                $$->u.cond.t = ast_block(ps, $4, SP(@4));
                                $$->u.cond.f = ast_block(ps, $8, SP(@8)); ast_finish(ps, $$); }
  | LET IDENT '=' expr ';'    {
                                $$ = ast_expr_new(ps, E_LET, SP(@$)); $$->u.let.name = $2;
                                $$->u.let.name_sp = SP(@2); $$->u.let.value = $4; }
  | error ';'                 { $$ = NULL; yyerrok; }
  ;

/* A flows stage's cut data and time alone: optional here so that the checker can say
 * what is missing. */
opt_under:
    %empty                    { $$ = NULL; }
  | UNDER expr                { $$ = $2; }
  ;

opt_alone:
    %empty                    { $$ = NULL; }
  | ALONE expr                { $$ = $2; }
  ;

/* When a flow starts (flows stages only; the checker says so elsewhere). */
opt_start:
    %empty                    { $$ = NULL; }
  | AT expr                   { $$ = $2; }
  ;

opt_args:
    %empty                    { $$ = NULL; }
  | args
  ;

args:
    arg                       { $$ = ast_cons(ps, $1, NULL); }
  | args ',' arg              { $$ = ast_cons(ps, $3, $1); }
  ;

/* An argument; `sum` alone is the reduction operator of that name (reduce(m, P, sum)). */
arg:
    expr
  | SUM                       { $$ = ast_name(ps, sym_intern(ps->ctx->syms, "sum", 3), SP(@$)); }
  ;

stage_items:
    stage_item                { $$ = $1 ? ast_cons(ps, $1, NULL) : NULL; }
  | stage_items stage_item    { $$ = $2 ? ast_cons(ps, $2, $1) : $1; }
  ;

stage_item:
    expr ';'                  { $$ = $1; }
  | STRING ':' expr ';'       { $$ = label(ps, $3, $1); }
  | error ';'                 { $$ = NULL; yyerrok; }
  ;

%%

static ast_arg *arg_new(parse_state *ps, sym name, kind k, TLOP_YYLTYPE l) {
  ast_arg *a = arena_alloc_aligned(ps->ar, sizeof *a, _Alignof(ast_arg));
  a->name = name;
  a->k = k;
  a->loc = spot_of(SP(l));
  return a;
}

static ast_decl *fn_decl(parse_state *ps, ast_dkind dk, sym name, TLOP_YYLTYPE nl,
                         ast_list *args, ast_expr *body, TLOP_YYLTYPE l) {
  ast_decl *d = ast_decl_new(ps, dk, SP(l));
  d->name = name;
  d->name_sp = SP(nl);
  d->args = ast_args_array(ps, args, &d->nargs);
  d->body = body;
  d->k = KIND_ANY;
  return d;
}

static kind kind_named(parse_state *ps, sym name, TLOP_YYLTYPE l) {
  static const struct { const char *name; kind k; } kinds[] = {
    {"size", {K_DIM, 1, 0, false}}, {"time", {K_DIM, 0, 1, false}},
    {"count", {K_DIM, 0, 0, false}}, {"real", {K_DIM, 0, 0, true}},
    {"number", {K_NUM, 0, 0, false}}, {"bandwidth", {K_DIM, 1, -1, false}},
    {"rate", {K_DIM, -1, 1, false}}, {"bool", {K_BOOL, 0, 0, false}},
    {"op", {K_OP, 0, 0, false}}, {"mapping", {K_MAP, 0, 0, false}}};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (strcmp(name->name, kinds[i].name) == 0)
      return kinds[i].k;
  diag_error(ps->ctx, SP(l), "unknown kind '%s': expected size, count, time, real, number, "
             "bandwidth, rate (time per byte), bool, op (a reduction operator) or mapping (ranks "
             "on nodes)", name->name);
  ps->errors++;
  return KIND_ANY;
}

/* schedule L[ch](S) { … }: only transfers are scheduled. */
static ast_expr *ast_schedule(parse_state *ps, sym transfer, sym channel, ast_expr *size,
                              ast_list *statements, TLOP_YYLTYPE tl, span sp) {
  if (strcmp(transfer->name, "L") != 0) {
    diag_error(ps->ctx, SP(tl), "a schedule places transfers: write 'schedule L(size) { … }'");
    ps->errors++;
  }
  ast_expr *e = ast_expr_new(ps, E_SCHEDULE, sp);
  e->u.sched.channel = channel;
  e->u.sched.size = size;
  e->u.sched.body = ast_block(ps, statements, sp);
  e->depth = ast_depth(e->u.sched.body) + 1;
  return e;
}

/* messages on sequential(Q) { … }: a stage of messages placed on nodes by a mapping. */
static ast_expr *ast_messages(parse_state *ps, sym mapping, ast_list *args, ast_list *statements,
                              TLOP_YYLTYPE ml, span sp) {
  ast_expr *e = ast_expr_new(ps, E_MESSAGES, sp);
  e->u.msgs.mapping = mapping;
  e->u.msgs.mapping_sp = SP(ml);
  e->u.msgs.args = ast_exprs_array(ps, args, &e->u.msgs.nargs);
  e->u.msgs.body = ast_block(ps, statements, sp);
  e->depth = ast_depth(e->u.msgs.body) + 1;
  return e;
}

/* messages[L] on …: the stage prices each message by the transfer named (checked). */
static ast_expr *ast_messages_priced(parse_state *ps, ast_expr *e, sym priced, span priced_sp) {
  (void)ps;
  e->u.msgs.priced = priced;
  e->u.msgs.priced_sp = priced_sp;
  return e;
}

/* flows under CUTS alone TIME { … }: flows between nodes under Martinasso's model. */
static ast_expr *ast_flows(parse_state *ps, ast_expr *cuts, ast_expr *alone, ast_list *statements,
                           span sp) {
  ast_expr *e = ast_expr_new(ps, E_FLOWS, sp);
  e->u.flows.cuts = cuts;
  e->u.flows.alone = alone;
  e->u.flows.body = ast_block(ps, statements, sp);
  return ast_finish(ps, e);
}

/* A sum or a maximum over index = lo .. hi of body. */
static ast_expr *ranged(parse_state *ps, bool is_max, sym index, TLOP_YYLTYPE il, ast_expr *lo,
                        ast_expr *hi, ast_expr *body, TLOP_YYLTYPE l) {
  ast_expr *e = ast_expr_new(ps, E_SUM, SP(l));
  e->u.sum.index = index;
  e->u.sum.index_sp = SP(il);
  e->u.sum.lo = lo;
  e->u.sum.hi = hi;
  e->u.sum.body = body;
  e->u.sum.is_max = is_max;
  ast_finish(ps, e);
  return e;
}

/* A number as written, with its unit applied: one that overflows (1e999, 1e300 TiB) is an
 * error here, not an infinity that an operation far away reports. */
static ast_expr *literal(parse_state *ps, double v, kind k, TLOP_YYLTYPE l) {
  if (!isfinite(v)) {
    diag_error(ps->ctx, SP(l), "number too large (overflows to infinity)");
    ps->errors++;
  }
  return ast_num(ps, v, k, SP(l));
}

/* 2k, 2L(S,1): the papers' product of a number and a name written together. With space
 * between them (2 k) it is a slip more often than a product, so it is refused. A lone e
 * written together (1e) is an exponent without digits, not the product 1·e. */
static ast_expr *juxtaposed(parse_state *ps, double v, TLOP_YYLTYPE nl, ast_expr *e, TLOP_YYLTYPE el) {
  const char *name = ps->src->text + el.lo;
  if (nl.hi == el.lo && el.hi == el.lo + 1 && (*name == 'e' || *name == 'E')) {
    diag_error(ps->ctx, (span){ps->src, nl.lo, el.hi}, "number '%.*s' has no exponent digits",
               (int)(el.hi - nl.lo), ps->src->text + nl.lo);
    ps->errors++;
  } else if (nl.hi != el.lo) {
    diag_error(ps->ctx, (span){ps->src, nl.lo, el.hi}, "a number and a name side by side: "
               "write '*' between them, or write them together (2k)");
    ps->errors++;
  }
  return ast_binary(ps, OP_MUL, literal(ps, v, KIND_NUM, nl), e, (span){ps->src, nl.lo, el.hi});
}

/* A labelled stage: `"scatter": expr;` keeps its name for explain. */
static ast_expr *label(parse_state *ps, ast_expr *e, const char *text) {
  ast_expr *l = ast_expr_new(ps, E_STAGES, ast_span(ps->ctx, e));
  l->u.stages.items = arena_alloc(ps->ar, sizeof *l->u.stages.items);
  l->u.stages.labels = arena_alloc(ps->ar, sizeof *l->u.stages.labels);
  l->u.stages.items[0] = e;
  l->u.stages.labels[0] = sym_intern(ps->ctx->syms, text, strlen(text));
  l->u.stages.n = 1;
  l->depth = ast_depth(e) + 1;
  return l;
}

/* What the user sees of a token: 'sum', a number, end of input. */
static const char *token_text(yysymbol_kind_t k, char *buf, size_t n) {
  if (k == YYSYMBOL_YYEOF)
    return "end of input";
  const char *name = yysymbol_name(k);
  size_t len = strlen(name);
  if (len >= 2 && name[0] == '"' && name[len - 1] == '"') {
    snprintf(buf, n, "%.*s", (int)(len - 2), name + 1);
    return buf;
  }
  return name;
}

/* Tokens that join two operands, and tokens that start an operand, by their printed text. */
static bool in_list(const char *text, const char *const *list) {
  for (; *list; list++)
    if (strcmp(text, *list) == 0)
      return true;
  return false;
}

static bool binary_operator(yysymbol_kind_t k) {
  static const char *const ops[] = {"'and'", "'or'", "'∥'", "'<='", "'>='", "'=='", "'!='",
                                    "'<'", "'>'", "'+'", "'-'", "'*'", "'/'", "'%'", "'^'",
                                    "unit", NULL};
  char buf[64];
  return in_list(token_text(k, buf, sizeof buf), ops);
}

static bool operand_start(yysymbol_kind_t k) {
  static const char *const starts[] = {"identifier", "number", "'let'", "'if'", "'sum'",
                                       "'stages'", "'repeat'", "'gamma'", "'not'", "'⌈'",
                                       "'⌊'", "'Σ_{'", "'max'", "'max_{'", "'log₂'", "'-'",
                                       "'('", "'schedule'", "'messages'", "'flows'", "'true'",
                                       "'false'", NULL};
  char buf[64];
  return in_list(token_text(k, buf, sizeof buf), starts);
}

/* After an operand, a name, '(' or '[' also continue it (2k, f(x), L[net]). */
static bool continues_operand(yysymbol_kind_t k) {
  static const char *const more[] = {"identifier", "'('", "'['", NULL};
  char buf[64];
  return binary_operator(k) || in_list(token_text(k, buf, sizeof buf), more);
}

/* "expected an operator or ';'" rather than twenty tokens: where most binary operators
 * (or most starts of an operand) would do, they are named as a class. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, parse_state *ps) {
  (void)scanner;
  if (ps->stopped)
    return 0; /* the end of input the scanner gave after --max-errors */
  yysymbol_kind_t expected[40];
  int n = yypcontext_expected_tokens(ctx, expected, 40);
  TLOP_YYLTYPE *l = yypcontext_location(ctx);
  char buf[64];
  strbuf msg = {0};
  yysymbol_kind_t got = yypcontext_token(ctx);
  sb_printf(&msg, "unexpected %s", token_text(got, buf, sizeof buf));
  int ops = 0, starts = 0;
  for (int i = 0; i < n; i++) {
    ops += binary_operator(expected[i]);
    starts += operand_start(expected[i]);
  }
  bool op_class = ops >= 5, start_class = !op_class && starts >= 5;
  const char *items[40];
  int k = 0;
  if (start_class)
    items[k++] = "an expression";
  if (op_class)
    items[k++] = "an operator";
  static char names[40][64];
  for (int i = 0; i < n && n <= 40; i++) {
    bool folded = (op_class && continues_operand(expected[i])) ||
                  (start_class && operand_start(expected[i]));
    if (!folded) {
      snprintf(names[k], sizeof names[k], "%s", token_text(expected[i], buf, sizeof buf));
      items[k] = names[k];
      k++;
    }
  }
  if (k > 0 && n <= 40) {
    sb_puts(&msg, "; expected ");
    for (int i = 0; i < k; i++) {
      if (i)
        sb_puts(&msg, i == k - 1 ? " or " : ", ");
      sb_puts(&msg, items[i]);
    }
  }
  char *m = sb_take(&msg);
  diag_error(ps->ctx, (span){ps->src, l->lo, l->hi}, "%s", m);
  free(m);
  ps->errors++;
  return 0;
}

static void tlop_yyerror(TLOP_YYLTYPE *l, void *scanner, parse_state *ps, const char *msg) {
  (void)scanner;
  /* Bison says "memory exhausted" when its stack bound is reached. */
  if (strstr(msg, "exhausted"))
    diag_error(ps->ctx, (span){ps->src, l->lo, l->hi},
               "input nested too deeply: the parser's stack of %d entries is full", YYMAXDEPTH);
  else
    diag_error(ps->ctx, (span){ps->src, l->lo, l->hi}, "%s", msg);
  ps->errors++;
}

/* ---- entry points: run the scanner and parser over one source ---- */

typedef void *yyscan_t;
int tlop_yylex_init_extra(parse_state *extra, yyscan_t *scanner);
int tlop_yylex_destroy(yyscan_t scanner);

/* Text holds no NUL byte; UTF-16 holds one in nearly every character. One error for the
 * file instead of one per byte (and flex is quadratic in a run of NULs). */
static bool is_text(tlop_ctx *ctx, const source *src) {
  const unsigned char *t = (const unsigned char *)src->text;
  if (src->len >= 2 && ((t[0] == 0xFF && t[1] == 0xFE) || (t[0] == 0xFE && t[1] == 0xFF))) {
    diag_error(ctx, (span){src, 0, 2}, "this file is UTF-16 (it starts with a UTF-16 "
               "byte-order mark): save it as UTF-8");
    return false;
  }
  const char *nul = memchr(src->text, 0, src->len);
  if (nul) {
    uint32_t at = (uint32_t)(nul - src->text);
    diag_error(ctx, (span){src, at, at + 1}, "a NUL byte: this is not a text file (binary data, "
               "or UTF-16?)");
    return false;
  }
  return true;
}

static int run(tlop_ctx *ctx, arena *ar, const source *src, int start, parse_state *ps) {
  memset(ps, 0, sizeof *ps);
  ps->ctx = ctx;
  ps->ar = ar;
  ps->src = src;
  ps->start_token = start;
  if (src->len > (size_t)INT32_MAX) {
    diag_error(ctx, (span){src, 0, 0}, "input larger than 2 GiB");
    return 1;
  }
  if (!is_text(ctx, src))
    return 1;
  yyscan_t scanner;
  if (tlop_yylex_init_extra(ps, &scanner) != 0)
    return 1;
  int rc = tlop_yyparse(scanner, ps);
  tlop_yylex_destroy(scanner);
  if (rc != 0 && ps->errors == 0)
    ps->errors = 1;
  return ps->errors;
}

int parse_file(tlop_ctx *ctx, arena *ar, const source *src, ast_decl **out) {
  parse_state ps;
  int errors = run(ctx, ar, src, START_FILE, &ps);
  /* Hand the declarations back as a list in source order: the parser's, reversed. */
  ast_decl *in_order = NULL;
  for (ast_decl *d = ps.decls, *next; d; d = next) {
    next = d->next;
    d->next = in_order;
    in_order = d;
  }
  *out = in_order;
  return errors;
}

int parse_facts(tlop_ctx *ctx, arena *ar, const source *src, ast_expr ***out, int *n) {
  parse_state ps;
  int errors = run(ctx, ar, src, START_FACTS, &ps);
  *out = ast_exprs_array(&ps, errors ? NULL : ps.facts, n);
  return errors;
}

int parse_expr(tlop_ctx *ctx, arena *ar, const source *src, ast_expr **out) {
  parse_state ps;
  int errors = run(ctx, ar, src, START_EXPR, &ps);
  *out = errors ? NULL : ps.expr;
  return errors;
}
