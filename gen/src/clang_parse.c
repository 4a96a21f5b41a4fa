/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The libclang front end: parse one header and report its C facts as a cunit
 * (parse.h). This is the only file that includes <clang-c/Index.h>. It finds
 * the structs, unions and enums that carry avrogen annotations (in place or
 * through AVRO_EXTERN_* markers) outside system headers, and describes them and
 * every type their members reach. It makes no Avro decisions: what a C type
 * means, and whether it is allowed, is model.c's business.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>
#include <sys/stat.h>
#include <unistd.h>

#include "genutil.h"
#include "parse.h"

#define ANNOTATION_PREFIX "avrogen:"
#define MARKER_PREFIX     "avrogen_marker_"

/* A declaration cursor → cdecl association (also typedef names). */
struct cursor_entry {
    CXCursor cursor;
    unsigned hash;
    struct cdecl *decl; /* declaration table */
    char *typedef_name; /* typedef table */
    CXCursor typedef_cursor;
};

struct ctx {
    CXTranslationUnit tu;
    CXFile main_file;
    struct cunit *u;
    struct cursor_entry *decls; /* every cdecl made, by defining cursor */
    size_t n_decls;
    struct cursor_entry *typedefs; /* declaration → first typedef naming it */
    size_t n_typedefs;
    CXCursor *roots; /* annotated definitions, source order */
    size_t n_roots;
    CXCursor *markers; /* AVRO_EXTERN_* typedefs, source order */
    size_t n_markers;
};

static char *take_string(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = xstrdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

static const char *intern_file(struct cunit *u, const char *name)
{
    for (size_t i = 0; i < u->n_files; i++)
        if (strcmp(u->files[i], name) == 0)
            return u->files[i];
    u->files = xappend(u->files, u->n_files, sizeof *u->files);
    u->files[u->n_files] = xstrdup(name);
    return u->files[u->n_files++];
}

/* Where a cursor is, as the user wrote it: inside a macro, the macro's use. */
static struct model_loc cursor_loc(struct ctx *c, CXCursor cur)
{
    CXFile file;
    unsigned line, column;
    struct model_loc loc = {NULL, 0, 0};
    clang_getExpansionLocation(clang_getCursorLocation(cur), &file, &line, &column, NULL);
    if (file) {
        char *name = take_string(clang_getFileName(file));
        loc.file = intern_file(c->u, name);
        free(name);
        loc.line = line;
        loc.column = column;
    }
    return loc;
}

/* Written in the header being parsed (for a macro, where the macro is used). */
static bool in_main_file(struct ctx *c, CXCursor cur)
{
    CXFile file;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &file, NULL, NULL, NULL);
    return file && clang_File_isEqual(file, c->main_file);
}

static bool in_system_header(CXCursor cur)
{
    return clang_Location_isInSystemHeader(clang_getCursorLocation(cur)) != 0;
}

static struct cursor_entry *find_entry(struct cursor_entry *v, size_t n, CXCursor cur)
{
    unsigned h = clang_hashCursor(cur);
    for (size_t i = 0; i < n; i++)
        if (v[i].hash == h && clang_equalCursors(v[i].cursor, cur))
            return &v[i];
    return NULL;
}

/* The cursor that identifies a tag type: its definition, else its first declaration. */
static CXCursor identity(CXCursor cur)
{
    CXCursor def = clang_getCursorDefinition(cur);
    return clang_Cursor_isNull(def) ? clang_getCanonicalCursor(cur) : def;
}

/* ---- doc comments ---------------------------------------------------- */

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/*
 * The text of a doc comment without its markers: `/ **`, `/ *!`, `* /`, the
 * leading `*` of continuation lines, `///`, `//!` and the `<` of trailing
 * comments. Lines are joined with '\n'; leading and trailing blank lines and
 * trailing spaces go. NULL for an empty comment.
 */
static char *strip_comment(const char *raw)
{
    size_t n = strlen(raw);
    char *out = xmalloc(n + 1);
    size_t len = 0;
    bool block = n >= 2 && raw[0] == '/' && raw[1] == '*';
    const char *p = raw;
    const char *end = raw + n;
    if (block) {
        p += 2;
        if (p < end && (*p == '*' || *p == '!'))
            p++;
        if (end - p >= 2 && end[-2] == '*' && end[-1] == '/')
            end -= 2;
    }
    bool first = true;
    while (p <= end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t'))
            s++;
        if (!block) {
            if (eol - s >= 3 && s[0] == '/' && s[1] == '/' && (s[2] == '/' || s[2] == '!'))
                s += 3;
            if (s < eol && *s == '<')
                s++;
        } else if (first) {
            if (s < eol && *s == '<')
                s++;
        } else if (s < eol && *s == '*') {
            s++;
        }
        if (s < eol && *s == ' ')
            s++;
        const char *e = eol;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (len > 0 || !is_blank(s, (size_t)(e - s))) {
            if (len > 0)
                out[len++] = '\n';
            memcpy(out + len, s, (size_t)(e - s));
            len += (size_t)(e - s);
        }
        first = false;
        p = eol + 1;
    }
    while (len > 0 && out[len - 1] == '\n')
        len--;
    out[len] = '\0';
    if (len == 0) {
        free(out);
        return NULL;
    }
    return out;
}

static char *cursor_doc(CXCursor cur)
{
    CXString raw = clang_Cursor_getRawCommentText(cur);
    const char *text = clang_getCString(raw);
    char *doc = text ? strip_comment(text) : NULL;
    clang_disposeString(raw);
    return doc;
}

/* ---- annotations ----------------------------------------------------- */

struct annot_list {
    struct ctx *c;
    struct cannot *v;
    size_t n;
};

static enum CXChildVisitResult collect_annotation(CXCursor cur, CXCursor parent, void *data)
{
    struct annot_list *l = data;
    (void)parent;
    if (clang_getCursorKind(cur) != CXCursor_AnnotateAttr)
        return CXChildVisit_Continue;
    char *text = take_string(clang_getCursorSpelling(cur));
    if (strncmp(text, ANNOTATION_PREFIX, strlen(ANNOTATION_PREFIX)) == 0) {
        const char *kind = text + strlen(ANNOTATION_PREFIX);
        const char *colon = strchr(kind, ':');
        l->v = xappend(l->v, l->n, sizeof *l->v);
        struct cannot *a = &l->v[l->n++];
        a->kind = colon ? xstrndup(kind, (size_t)(colon - kind)) : xstrdup(kind);
        a->text = xstrdup(colon ? colon + 1 : "");
        a->loc = cursor_loc(l->c, cur);
    }
    free(text);
    return CXChildVisit_Continue;
}

static void annotations(struct ctx *c, CXCursor cur, struct cannot **v, size_t *n)
{
    struct annot_list l = {c, NULL, 0};
    clang_visitChildren(cur, collect_annotation, &l);
    *v = l.v;
    *n = l.n;
}

static enum CXChildVisitResult find_annotation(CXCursor cur, CXCursor parent, void *data)
{
    bool *found = data;
    (void)parent;
    if (clang_getCursorKind(cur) == CXCursor_AnnotateAttr) {
        CXString s = clang_getCursorSpelling(cur);
        const char *text = clang_getCString(s);
        if (text && strncmp(text, ANNOTATION_PREFIX, strlen(ANNOTATION_PREFIX)) == 0)
            *found = true;
        clang_disposeString(s);
    }
    return *found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool is_annotated(CXCursor cur)
{
    bool found = false;
    clang_visitChildren(cur, find_annotation, &found);
    return found;
}

/* ---- types and declarations ------------------------------------------ */

static struct cdecl *get_decl(struct ctx *c, CXCursor cur);

static struct ctype *convert_type(struct ctx *c, CXType t)
{
    struct ctype *ct = xcalloc(1, sizeof *ct);
    ct->spelling = take_string(clang_getTypeSpelling(t));
    ct->canonical = take_string(clang_getTypeSpelling(clang_getCanonicalType(t)));
    ct->is_const = clang_isConstQualifiedType(t) != 0;
    long long size = clang_Type_getSizeOf(t);
    ct->size = size > 0 ? (uint64_t)size : 0;

    for (;;) {
        if (t.kind == CXType_Typedef) {
            ct->typedefs = xappend(ct->typedefs, ct->n_typedefs, sizeof *ct->typedefs);
            ct->typedefs[ct->n_typedefs++] = take_string(clang_getTypedefName(t));
            t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
        } else if (t.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
        } else if (t.kind == CXType_Attributed) {
            t = clang_Type_getModifiedType(t);
        } else {
            break;
        }
    }

    switch (t.kind) {
    case CXType_Void:
        ct->kind = CTYPE_VOID;
        break;
    case CXType_Bool:
        ct->kind = CTYPE_BOOL;
        break;
    case CXType_Char_S:
    case CXType_Char_U:
        ct->is_plain_char = true;
        AVROGEN_FALLTHROUGH;
    case CXType_SChar:
    case CXType_UChar:
        ct->is_char = true;
        AVROGEN_FALLTHROUGH;
    case CXType_Short:
    case CXType_UShort:
    case CXType_Int:
    case CXType_UInt:
    case CXType_Long:
    case CXType_ULong:
    case CXType_LongLong:
    case CXType_ULongLong:
        ct->kind = CTYPE_INT;
        ct->is_signed = t.kind == CXType_Char_S || t.kind == CXType_SChar ||
                        t.kind == CXType_Short || t.kind == CXType_Int || t.kind == CXType_Long ||
                        t.kind == CXType_LongLong;
        ct->is_long = t.kind == CXType_Long || t.kind == CXType_ULong;
        break;
    case CXType_Float:
        ct->kind = CTYPE_FLOAT;
        break;
    case CXType_Double:
        ct->kind = CTYPE_DOUBLE;
        break;
    case CXType_LongDouble:
        ct->kind = CTYPE_LONG_DOUBLE;
        break;
    case CXType_Pointer:
        ct->kind = CTYPE_POINTER;
        ct->elem = convert_type(c, clang_getPointeeType(t));
        break;
    case CXType_ConstantArray:
        ct->kind = CTYPE_ARRAY;
        ct->len = (uint64_t)clang_getArraySize(t);
        ct->elem = convert_type(c, clang_getArrayElementType(t));
        break;
    case CXType_IncompleteArray:
        ct->kind = CTYPE_FLEX_ARRAY;
        ct->elem = convert_type(c, clang_getArrayElementType(t));
        break;
    case CXType_Record:
    case CXType_Enum:
        ct->decl = get_decl(c, clang_getTypeDeclaration(t));
        ct->kind = ct->decl->kind == CDECL_ENUM    ? CTYPE_ENUM
                   : ct->decl->kind == CDECL_UNION ? CTYPE_UNION
                                                   : CTYPE_STRUCT;
        break;
    case CXType_FunctionProto:
    case CXType_FunctionNoProto:
        ct->kind = CTYPE_FUNCTION;
        break;
    default:
        ct->kind = CTYPE_OTHER;
        break;
    }
    return ct;
}

struct member_visit {
    struct ctx *c;
    struct cdecl *d;
};

static enum CXVisitorResult visit_field(CXCursor cur, CXClientData data)
{
    struct member_visit *mv = data;
    struct cdecl *d = mv->d;
    d->members = xappend(d->members, d->n_members, sizeof *d->members);
    struct cmember *m = &d->members[d->n_members++];
    m->name = take_string(clang_getCursorSpelling(cur));
    m->loc = cursor_loc(mv->c, cur);
    m->is_bitfield = clang_Cursor_isBitField(cur) != 0;
    long long bits = clang_Cursor_getOffsetOfField(cur);
    m->offset = bits > 0 ? (uint64_t)bits / 8 : 0;
    m->doc = cursor_doc(cur);
    annotations(mv->c, cur, &m->annots, &m->n_annots);
    m->type = convert_type(mv->c, clang_getCursorType(cur));
    return CXVisit_Continue;
}

static enum CXChildVisitResult visit_enumerator(CXCursor cur, CXCursor parent, void *data)
{
    struct member_visit *mv = data;
    struct cdecl *d = mv->d;
    (void)parent;
    if (clang_getCursorKind(cur) != CXCursor_EnumConstantDecl)
        return CXChildVisit_Continue;
    d->enumerators = xappend(d->enumerators, d->n_enumerators, sizeof *d->enumerators);
    struct cenumerator *e = &d->enumerators[d->n_enumerators++];
    e->name = take_string(clang_getCursorSpelling(cur));
    e->loc = cursor_loc(mv->c, cur);
    e->doc = cursor_doc(cur);
    e->value = d->enum_signed ? (int64_t)clang_getEnumConstantDeclValue(cur)
                              : (int64_t)clang_getEnumConstantDeclUnsignedValue(cur);
    annotations(mv->c, cur, &e->annots, &e->n_annots);
    return CXChildVisit_Continue;
}

static bool is_signed_integer(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
        return true;
    default:
        return false;
    }
}

/* The cdecl of the struct, union or enum declared at `cur`, made on first use.
 * It is registered before its members are described, so recursive types end. */
static struct cdecl *get_decl(struct ctx *c, CXCursor cur)
{
    cur = identity(cur);
    struct cursor_entry *e = find_entry(c->decls, c->n_decls, cur);
    if (e)
        return e->decl;

    struct cdecl *d = xcalloc(1, sizeof *d);
    c->decls = xappend(c->decls, c->n_decls, sizeof *c->decls);
    e = &c->decls[c->n_decls++];
    e->cursor = cur;
    e->hash = clang_hashCursor(cur);
    e->decl = d;
    struct cunit *u = c->u;
    u->decls = xappend(u->decls, u->n_decls, sizeof *u->decls);
    d->order = (unsigned)u->n_decls;
    u->decls[u->n_decls++] = d;

    enum CXCursorKind kind = clang_getCursorKind(cur);
    d->kind = kind == CXCursor_EnumDecl    ? CDECL_ENUM
              : kind == CXCursor_UnionDecl ? CDECL_UNION
                                           : CDECL_STRUCT;
    if (!clang_Cursor_isAnonymous(cur)) {
        d->tag = take_string(clang_getCursorSpelling(cur));
        if (!d->tag[0]) { /* libclang 14 spells an unnamed struct "" */
            free(d->tag);
            d->tag = NULL;
        }
    }
    struct cursor_entry *td = find_entry(c->typedefs, c->n_typedefs, cur);
    if (td)
        d->typedef_name = xstrdup(td->typedef_name);
    d->complete = clang_isCursorDefinition(cur) != 0;
    d->in_system_header = in_system_header(cur);
    d->in_main_file = in_main_file(c, cur);
    d->loc = cursor_loc(c, cur);
    d->doc = cursor_doc(cur);
    if (!d->doc && td)
        d->doc = cursor_doc(td->typedef_cursor);
    annotations(c, cur, &d->annots, &d->n_annots);

    CXType type = clang_getCursorType(cur);
    long long size = clang_Type_getSizeOf(type);
    long long align = clang_Type_getAlignOf(type);
    d->size = size > 0 ? (uint64_t)size : 0;
    d->align = align > 0 ? (uint64_t)align : 0;

    /* System types are never annotated: their name is all a message needs. */
    if (!d->complete || d->in_system_header)
        return d;
    struct member_visit mv = {c, d};
    if (d->kind == CDECL_ENUM) {
        CXType it = clang_getEnumDeclIntegerType(cur);
        d->enum_signed = is_signed_integer(it);
        long long isize = clang_Type_getSizeOf(it);
        d->enum_size = isize > 0 ? (uint64_t)isize : 0;
        clang_visitChildren(cur, visit_enumerator, &mv);
    } else {
        clang_Type_visitFields(type, visit_field, &mv);
    }
    return d;
}

/* ---- the translation-unit walk --------------------------------------- */

/* The tag declaration a typedef names directly (not through a pointer), or a null cursor. */
static CXCursor typedef_target(CXCursor td)
{
    CXType t = clang_getTypedefDeclUnderlyingType(td);
    while (t.kind == CXType_Elaborated || t.kind == CXType_Typedef) {
        if (t.kind == CXType_Elaborated)
            t = clang_Type_getNamedType(t);
        else
            t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
    }
    if (t.kind != CXType_Record && t.kind != CXType_Enum)
        return clang_getNullCursor();
    return identity(clang_getTypeDeclaration(t));
}

static bool is_marker(CXCursor td)
{
    CXString s = clang_getCursorSpelling(td);
    const char *name = clang_getCString(s);
    bool r = name && strncmp(name, MARKER_PREFIX, strlen(MARKER_PREFIX)) == 0;
    clang_disposeString(s);
    return r;
}

static void add_root(struct ctx *c, CXCursor cur)
{
    cur = identity(cur);
    for (size_t i = 0; i < c->n_roots; i++)
        if (clang_equalCursors(c->roots[i], cur))
            return; /* an anonymous struct in a typedef is visited twice */
    c->roots = xappend(c->roots, c->n_roots, sizeof *c->roots);
    c->roots[c->n_roots++] = cur;
}

static enum CXChildVisitResult walk(CXCursor cur, CXCursor parent, void *data)
{
    struct ctx *c = data;
    (void)parent;
    if (in_system_header(cur))
        return CXChildVisit_Continue;
    switch (clang_getCursorKind(cur)) {
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
    case CXCursor_EnumDecl:
        if (clang_isCursorDefinition(cur) && is_annotated(cur))
            add_root(c, cur);
        return CXChildVisit_Recurse; /* struct definitions may nest */
    case CXCursor_TypedefDecl:
        if (is_marker(cur)) {
            c->markers = xappend(c->markers, c->n_markers, sizeof *c->markers);
            c->markers[c->n_markers++] = cur;
            return CXChildVisit_Continue;
        } else {
            CXCursor target = typedef_target(cur);
            if (!clang_Cursor_isNull(target) && !find_entry(c->typedefs, c->n_typedefs, target)) {
                c->typedefs = xappend(c->typedefs, c->n_typedefs, sizeof *c->typedefs);
                struct cursor_entry *e = &c->typedefs[c->n_typedefs++];
                e->cursor = target;
                e->hash = clang_hashCursor(target);
                e->typedef_name = take_string(clang_getCursorSpelling(cur));
                e->typedef_cursor = cur;
            }
        }
        return CXChildVisit_Recurse;
    default:
        return CXChildVisit_Continue;
    }
}

static void add_marker(struct ctx *c, CXCursor td)
{
    struct cunit *u = c->u;
    u->markers = xappend(u->markers, u->n_markers, sizeof *u->markers);
    struct cmarker *mk = &u->markers[u->n_markers++];
    mk->loc = cursor_loc(c, td);
    mk->in_main_file = in_main_file(c, td);
    mk->target_spelling =
            take_string(clang_getTypeSpelling(clang_getTypedefDeclUnderlyingType(td)));
    CXCursor target = typedef_target(td);
    if (!clang_Cursor_isNull(target))
        mk->target = get_decl(c, target);

    struct cannot *all;
    size_t n;
    annotations(c, td, &all, &n);
    mk->kind = CMARKER_FIELD;
    for (size_t i = 0; i < n; i++) {
        struct cannot *a = &all[i];
        bool is_head = true;
        if (strcmp(a->kind, "extern_record") == 0)
            mk->kind = CMARKER_RECORD;
        else if (strcmp(a->kind, "extern_enum") == 0)
            mk->kind = CMARKER_ENUM;
        else if (strcmp(a->kind, "extern_field") == 0)
            mk->member = xstrdup(a->text);
        else
            is_head = false;
        if (is_head && mk->kind != CMARKER_FIELD) {
            /* The payload starts with the type: "struct point, name = ...". */
            const char *comma = strchr(a->text, ',');
            char *opts = xstrdup(comma ? comma + 1 : "");
            free(a->text);
            a->text = opts;
        }
        if (is_head && mk->kind == CMARKER_FIELD) {
            free(a->kind);
            free(a->text);
            continue;
        }
        mk->annots = xappend(mk->annots, mk->n_annots, sizeof *mk->annots);
        mk->annots[mk->n_annots++] = *a;
    }
    free(all);
}

/* ---- diagnostics, inclusions, entry point ----------------------------- */

static void forward_diagnostic(struct diag *d, CXDiagnostic diag)
{
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(diag);
    if (sev >= CXDiagnostic_Warning || sev == CXDiagnostic_Note) {
        char *text =
                take_string(clang_formatDiagnostic(diag, clang_defaultDiagnosticDisplayOptions()));
        if (sev == CXDiagnostic_Note)
            fprintf(d->out, "%s\n", text);
        else
            diag_forward(d, text, sev >= CXDiagnostic_Error);
        free(text);
    }
    CXDiagnosticSet children = clang_getChildDiagnostics(diag);
    unsigned n = clang_getNumDiagnosticsInSet(children);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic child = clang_getDiagnosticInSet(children, i);
        forward_diagnostic(d, child);
        clang_disposeDiagnostic(child);
    }
}

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    struct cunit *u = data;
    (void)stack;
    (void)depth;
    char *name = take_string(clang_getFileName(file));
    for (size_t i = 0; i < u->n_deps; i++) {
        if (strcmp(u->deps[i], name) == 0) {
            free(name);
            return;
        }
    }
    u->deps = xappend(u->deps, u->n_deps, sizeof *u->deps);
    u->deps[u->n_deps++] = name;
}

/*
 * The folder holding <avrogen/annotate.h>, searched after every user -I so that
 * a header parses even when its caller forgot that directory. An installed
 * avrogen uses the annotate.h installed with it, found relative to its own
 * executable (<bindir>/AVROGEN_INSTALLED_ANNOTATE_RELDIR); a build-tree one
 * uses the source tree it was built from. NULL when neither exists. The result
 * is malloc'ed.
 */
static char *annotate_include_dir(void)
{
#if defined(AVROGEN_INSTALLED_ANNOTATE_RELDIR) && defined(__linux__)
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe); /* not NUL-terminated */
    char *slash = NULL;
    if (n > 0 && (size_t)n < sizeof exe) {
        exe[n] = '\0';
        slash = strrchr(exe, '/');
    }
    if (slash) {
        *slash = '\0';
        char *dir = xasprintf("%s/%s", exe, AVROGEN_INSTALLED_ANNOTATE_RELDIR);
        char *probe = xasprintf("%s/avrogen/annotate.h", dir);
        struct stat st;
        bool found = stat(probe, &st) == 0;
        free(probe);
        if (found)
            return dir;
        free(dir);
    }
#endif
#ifdef AVROGEN_ANNOTATE_INCLUDE_DIR
    struct stat src_st;
    if (stat(AVROGEN_ANNOTATE_INCLUDE_DIR "/avrogen/annotate.h", &src_st) == 0)
        return xstrdup(AVROGEN_ANNOTATE_INCLUDE_DIR);
#endif
    return NULL;
}

static bool has_prefix_arg(const char *const *args, size_t n, const char *prefix)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(args[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

int clang_parse(const char *header, const char *const *args, size_t n_args, struct diag *d,
                struct cunit **out)
{
    *out = NULL;
    const char **argv = xcalloc(n_args + 10, sizeof *argv);
    int argc = 0;
    if (!has_prefix_arg(args, n_args, "-x"))
        argv[argc++] = "-xc";
    if (!has_prefix_arg(args, n_args, "-std=") && !has_prefix_arg(args, n_args, "--std"))
        argv[argc++] = "-std=c11";
    for (size_t i = 0; i < n_args; i++)
        argv[argc++] = args[i];
    argv[argc++] = "-DAVROGEN_PARSING=1";
    /* A header given as the main file may well say #pragma once. */
    argv[argc++] = "-Wno-pragma-once-outside-header";
    char *annotate_dir = annotate_include_dir();
    if (annotate_dir) {
        argv[argc++] = "-idirafter";
        argv[argc++] = annotate_dir;
    }
#ifdef AVROGEN_CLANG_RESOURCE_DIR
    struct stat st;
    if (!has_prefix_arg(args, n_args, "-resource-dir") &&
        stat(AVROGEN_CLANG_RESOURCE_DIR "/include/stddef.h", &st) == 0) {
        argv[argc++] = "-resource-dir";
        argv[argc++] = AVROGEN_CLANG_RESOURCE_DIR;
    }
#endif

    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(
            index, header, argv, argc, NULL, 0,
            CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing, &tu);
    free(argv);
    free(annotate_dir);
    if (err != CXError_Success || !tu) {
        diag_error(d, NULL, "libclang could not parse '%s' (error %d)", header, (int)err);
        clang_disposeIndex(index);
        return 1;
    }

    unsigned n_diags = clang_getNumDiagnostics(tu);
    unsigned errors_before = d->errors;
    for (unsigned i = 0; i < n_diags; i++) {
        CXDiagnostic diag = clang_getDiagnostic(tu, i);
        forward_diagnostic(d, diag);
        clang_disposeDiagnostic(diag);
    }
    if (d->errors > errors_before) {
        clang_disposeTranslationUnit(tu);
        clang_disposeIndex(index);
        return 1;
    }

    struct cunit *u = xcalloc(1, sizeof *u);
    u->header = xstrdup(header);
    struct ctx c = {.tu = tu, .u = u, .main_file = clang_getFile(tu, header)};
    clang_getInclusions(tu, visit_inclusion, u);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), walk, &c);
    for (size_t i = 0; i < c.n_roots; i++)
        get_decl(&c, c.roots[i]);
    for (size_t i = 0; i < c.n_markers; i++)
        add_marker(&c, c.markers[i]);

    for (size_t i = 0; i < c.n_typedefs; i++)
        free(c.typedefs[i].typedef_name);
    free(c.typedefs);
    free(c.decls);
    free(c.roots);
    free(c.markers);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    *out = u;
    return 0;
}

/* ---- freeing --------------------------------------------------------- */

static void free_annots(struct cannot *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].kind);
        free(v[i].text);
    }
    free(v);
}

static void free_ctype(struct ctype *t)
{
    if (!t)
        return;
    free(t->spelling);
    free(t->canonical);
    for (size_t i = 0; i < t->n_typedefs; i++)
        free(t->typedefs[i]);
    free(t->typedefs);
    free_ctype(t->elem);
    free(t);
}

void cunit_free(struct cunit *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->n_decls; i++) {
        struct cdecl *d = u->decls[i];
        free(d->tag);
        free(d->typedef_name);
        free(d->doc);
        free_annots(d->annots, d->n_annots);
        for (size_t j = 0; j < d->n_members; j++) {
            struct cmember *m = &d->members[j];
            free(m->name);
            free(m->doc);
            free_annots(m->annots, m->n_annots);
            free_ctype(m->type);
        }
        free(d->members);
        for (size_t j = 0; j < d->n_enumerators; j++) {
            struct cenumerator *e = &d->enumerators[j];
            free(e->name);
            free(e->doc);
            free_annots(e->annots, e->n_annots);
        }
        free(d->enumerators);
        free(d);
    }
    free(u->decls);
    for (size_t i = 0; i < u->n_markers; i++) {
        free(u->markers[i].target_spelling);
        free(u->markers[i].member);
        free_annots(u->markers[i].annots, u->markers[i].n_annots);
    }
    free(u->markers);
    for (size_t i = 0; i < u->n_files; i++)
        free(u->files[i]);
    free(u->files);
    for (size_t i = 0; i < u->n_deps; i++)
        free(u->deps[i]);
    free(u->deps);
    free(u->header);
    free(u);
}
