/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The libclang front end: parse one header and report its C facts as a cunit
 * (parse.h). This is the only file that includes <clang-c/Index.h>. It finds
 * the structs, unions and enums that carry avrogen annotations (in place or
 * through AVRO_EXTERN_* markers), and describes them and every type their
 * members reach. System headers (-isystem, the compiler's default include
 * paths) are read like any other: their types are what AVRO_EXTERN_* exists
 * for. It makes no Avro decisions: what a C type means, and whether it is
 * allowed, is the model's business.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annot.h"
#include "exe_dir.h"
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
    struct diag *d;
    struct model_loc *hinted; /* AVRO_ identifiers a hint was given for */
    size_t n_hinted;
    bool clang_failed; /* clang reported an error: the AST is not to be trusted */
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

/* Where a source location is, as the user wrote it: inside a macro, the macro's use. */
static struct model_loc source_loc(struct ctx *c, CXSourceLocation where)
{
    CXFile file;
    unsigned line, column;
    struct model_loc loc = {NULL, 0, 0};
    clang_getExpansionLocation(where, &file, &line, &column, NULL);
    if (file) {
        char *name = take_string(clang_getFileName(file));
        loc.file = intern_file(c->u, name);
        free(name);
        loc.line = line;
        loc.column = column;
    }
    return loc;
}

static struct model_loc cursor_loc(struct ctx *c, CXCursor cur)
{
    return source_loc(c, clang_getCursorLocation(cur));
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
        a->expanded = NULL;
        char *nl = strchr(a->text, '\n');
        if (nl) { /* AVRO_ARRAY / AVRO_STRING / AVRO_BYTES: as written, then expanded */
            a->expanded = xstrdup(nl + 1);
            *nl = '\0';
        }
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
    uint64_t base; /* offset of the anonymous struct or union whose members are being listed */
    struct canon_union outer, inner; /* the anonymous unions the members are in, if any */
    struct model_loc union_loc;      /* the innermost one's member */
    unsigned *n_unions;              /* anonymous unions of d so far */
    unsigned *alt;                   /* NULL, or the innermost union's next alternative */
    uint64_t *offsets; /* every field's byte offset, in visiting order, or NULL: ask clang */
    size_t next;       /* the index in offsets of the field visited next */
};

/*
 * Field offsets without asking libclang per field. clang_Cursor_getOffsetOfField
 * first validates the whole record (every field, recursively), so one call per
 * member is quadratic: a struct of 100,000 members took minutes. In a run of
 * ordinary members the C layout rule is simple (each member at the next multiple
 * of its type's alignment after the one before, C11 6.7.2.1p15 and the psABI),
 * so one pass computes them all; clang is still asked for a bit-field and for
 * the member after one, whose places the rule does not give. The pass gives up
 * (NULL: ask clang for every member) when anything could move a member from
 * where the rule puts it: an attribute on the record or on a member (packed,
 * aligned, ...), or a record whose size or alignment is not the one the rule
 * gives (#pragma pack, -fpack-struct). The layout lock in the generated .c
 * (AVROGEN_LAYOUT) checks every offset against the compiler's anyway.
 */
struct layout_pass {
    uint64_t *offsets;
    size_t n;
    uint64_t end;   /* bits: where the last member ends */
    uint64_t align; /* bytes: the largest member alignment */
    bool exact;     /* no reason seen to doubt the rule */
    bool after_bitfield;
};

static enum CXChildVisitResult find_attribute(CXCursor cur, CXCursor parent, void *data)
{
    bool *found = data;
    (void)parent;
    enum CXCursorKind kind = clang_getCursorKind(cur);
    if (clang_isAttribute(kind) && kind != CXCursor_AnnotateAttr) {
        *found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static bool has_layout_attribute(CXCursor cur)
{
    bool found = false;
    clang_visitChildren(cur, find_attribute, &found);
    return found;
}

static enum CXVisitorResult layout_field(CXCursor cur, CXClientData data)
{
    struct layout_pass *lp = data;
    /* The declared type, not the canonical one: a typedef's alignment attribute
     * is not part of the canonical type. */
    CXType t = clang_getCursorType(cur);
    bool flexible = clang_getCanonicalType(t).kind == CXType_IncompleteArray;
    if (flexible && t.kind != CXType_IncompleteArray)
        t = clang_getCanonicalType(t);
    long long size = flexible ? 0 : clang_Type_getSizeOf(t);
    long long align = clang_Type_getAlignOf(flexible ? clang_getArrayElementType(t) : t);
    if (size < 0 || align <= 0 || (align & (align - 1)) != 0 || has_layout_attribute(cur)) {
        lp->exact = false;
        return CXVisit_Break;
    }
    uint64_t bits;
    bool bitfield = clang_Cursor_isBitField(cur) != 0;
    if (bitfield || lp->after_bitfield) {
        long long at = clang_Cursor_getOffsetOfField(cur);
        if (at < 0) {
            lp->exact = false;
            return CXVisit_Break;
        }
        bits = (uint64_t)at;
    } else {
        uint64_t a = (uint64_t)align, bytes = (lp->end + 7) / 8;
        bits = (bytes + a - 1) / a * a * 8;
    }
    lp->after_bitfield = bitfield;
    if (bitfield) {
        int width = clang_getFieldDeclBitWidth(cur);
        lp->end = bits + (width > 0 ? (uint64_t)width : 0);
    } else {
        lp->end = bits + (uint64_t)size * 8;
    }
    /* An unnamed bit-field gives the record no alignment (psABI); a mismatch
     * below only sends the record to the slow path. */
    if (!bitfield || !clang_Cursor_isAnonymous(cur))
        lp->align = (uint64_t)align > lp->align ? (uint64_t)align : lp->align;
    lp->offsets = xappend(lp->offsets, lp->n, sizeof *lp->offsets);
    lp->offsets[lp->n++] = bits / 8;
    return CXVisit_Continue;
}

/* The byte offset of each field of the struct `decl` of type t, in the order
 * clang_Type_visitFields visits them, or NULL when the rule may not hold. */
static uint64_t *field_offsets(CXCursor decl, CXType t)
{
    long long size = clang_Type_getSizeOf(t), align = clang_Type_getAlignOf(t);
    if (size < 0 || align <= 0 || has_layout_attribute(decl))
        return NULL;
    struct layout_pass lp = {NULL, 0, 0, 1, true, false};
    clang_Type_visitFields(t, layout_field, &lp);
    uint64_t a = lp.align, bytes = (lp.end + 7) / 8;
    if (!lp.exact || lp.align != (uint64_t)align || (bytes + a - 1) / a * a != (uint64_t)size) {
        free(lp.offsets);
        return NULL;
    }
    return lp.offsets;
}

/* A C11 anonymous struct or union member (`struct { int a; };`, no member
 * name), of that kind (CXCursor_StructDecl, CXCursor_UnionDecl). */
static bool is_anonymous_member(CXCursor field, enum CXCursorKind kind)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(field));
    if (t.kind != CXType_Record)
        return false;
    CXCursor decl = clang_getTypeDeclaration(t);
    return clang_getCursorKind(decl) == kind && clang_Cursor_isAnonymousRecordDecl(decl);
}

static enum CXVisitorResult visit_field(CXCursor cur, CXClientData data)
{
    struct member_visit *mv = data;
    struct cdecl *d = mv->d;
    uint64_t offset = mv->base;
    if (mv->offsets) {
        offset += mv->offsets[mv->next++];
    } else if (d->kind == CDECL_STRUCT) { /* a union's members are all at 0 (C11 6.7.2.1p16) */
        long long bits = clang_Cursor_getOffsetOfField(cur);
        offset += bits > 0 ? (uint64_t)bits / 8 : 0;
    }
    /* C11 6.7.2.1p13: "The members of an anonymous structure ... are
     * considered to be members of the containing structure". Not in a union:
     * there the anonymous struct is one alternative, which needs a name. */
    if (d->kind == CDECL_STRUCT && is_anonymous_member(cur, CXCursor_StructDecl)) {
        /* One alternative of the union it may be in, all its members. */
        struct member_visit inner = *mv;
        inner.base = offset;
        if (mv->alt) {
            inner.inner.alt = (*mv->alt)++;
            if (inner.outer.id == inner.inner.id)
                inner.outer.alt = inner.inner.alt;
            inner.alt = NULL;
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(cur));
        inner.offsets = field_offsets(clang_getTypeDeclaration(t), t);
        inner.next = 0;
        clang_Type_visitFields(t, visit_field, &inner);
        free(inner.offsets);
        return CXVisit_Continue;
    }
    /* Likewise an anonymous union's: members of the struct (6.7.2.1p13) that
     * share their storage, told apart by the union and alternative they are in
     * (the model lets one alternative through). */
    if (d->kind == CDECL_STRUCT && is_anonymous_member(cur, CXCursor_UnionDecl)) {
        struct member_visit inner = *mv;
        inner.base = offset;
        if (mv->alt) {
            inner.inner.alt = (*mv->alt)++;
            if (inner.outer.id == inner.inner.id)
                inner.outer.alt = inner.inner.alt;
        }
        unsigned alt = 0;
        inner.inner = (struct canon_union){++*mv->n_unions, 0};
        if (!inner.outer.id)
            inner.outer = inner.inner;
        inner.union_loc = cursor_loc(mv->c, cur);
        inner.alt = &alt;
        inner.offsets = NULL; /* all at 0 (C11 6.7.2.1p16) */
        inner.next = 0;
        clang_Type_visitFields(clang_getCanonicalType(clang_getCursorType(cur)), visit_field,
                               &inner);
        return CXVisit_Continue;
    }
    struct canon_union in_inner = mv->inner, in_outer = mv->outer;
    if (mv->alt) {
        in_inner.alt = (*mv->alt)++;
        if (in_outer.id == in_inner.id)
            in_outer.alt = in_inner.alt;
    }
    if (clang_Cursor_isBitField(cur)) {
        CXString name = clang_getCursorSpelling(cur);
        bool unnamed = clang_getCString(name)[0] == '\0';
        clang_disposeString(name);
        if (unnamed)
            return CXVisit_Continue; /* `unsigned : 3;` pads: no member (C11 6.7.2.1p12) */
    }
    /* A member whose type needs more alignment than the record has (packed,
     * #pragma pack) or that sits off it may be misaligned in memory: generated
     * code never takes a typed pointer into it. */
    if (!clang_Cursor_isBitField(cur)) {
        long long a = clang_Type_getAlignOf(clang_getCursorType(cur));
        if (a > 1 && ((uint64_t)a > d->align || offset % (uint64_t)a != 0))
            d->may_be_unaligned = true;
    }
    d->members = xappend(d->members, d->n_members, sizeof *d->members);
    struct cmember *m = &d->members[d->n_members++];
    m->name = take_string(clang_getCursorSpelling(cur));
    m->loc = cursor_loc(mv->c, cur);
    m->is_bitfield = clang_Cursor_isBitField(cur) != 0;
    m->bit_width = m->is_bitfield ? (unsigned)clang_getFieldDeclBitWidth(cur) : 0;
    m->offset = offset;
    m->doc = cursor_doc(cur);
    annotations(mv->c, cur, &m->annots, &m->n_annots);
    m->type = convert_type(mv->c, clang_getCursorType(cur));
    if (in_inner.id) {
        m->anon_outer = in_outer;
        m->anon_inner = in_inner;
        m->anon_loc = mv->union_loc;
    }
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

    if (!d->complete)
        return d;
    unsigned n_unions = 0;
    struct member_visit mv = {.c = c, .d = d, .n_unions = &n_unions};
    if (d->kind == CDECL_ENUM) {
        CXType it = clang_getEnumDeclIntegerType(cur);
        d->enum_signed = is_signed_integer(it);
        long long isize = clang_Type_getSizeOf(it);
        d->enum_size = isize > 0 ? (uint64_t)isize : 0;
        clang_visitChildren(cur, visit_enumerator, &mv);
    } else {
        if (d->kind == CDECL_STRUCT)
            mv.offsets = field_offsets(cur, type);
        clang_Type_visitFields(type, visit_field, &mv);
        free(mv.offsets);
    }
    return d;
}

/* ---- hints for misspelled and misplaced annotations -------------------- */

/*
 * A misspelled annotation (`AVRO_NULLABEL`) or one in the wrong place
 * (`struct tag AVRO_RECORD() {`) reaches the user as clang's "expected ';'" or,
 * worse, as nothing at all: `} AVRO_RECORDD();` declares a function and
 * `struct tag AVRO_RECORD();` draws only an ignored-attribute warning. Hints
 * look at the tokens around each clang diagnostic, and at file-scope names
 * spelled like annotations, and say what was meant. A hint that explains an
 * error is a note; one that explains a warning or no diagnostic at all is an
 * error, since the annotation it is about was dropped.
 */

static bool was_hinted(struct ctx *c, const struct model_loc *at)
{
    for (size_t i = 0; i < c->n_hinted; i++)
        if (c->hinted[i].file == at->file && c->hinted[i].line == at->line &&
            c->hinted[i].column == at->column)
            return true;
    return false;
}

static void hint(struct ctx *c, bool as_error, const struct model_loc *at, const char *fmt, ...)
        AVROGEN_PRINTF(4, 5);

static void hint(struct ctx *c, bool as_error, const struct model_loc *at, const char *fmt, ...)
{
    if (was_hinted(c, at))
        return;
    c->hinted = xappend(c->hinted, c->n_hinted, sizeof *c->hinted);
    c->hinted[c->n_hinted++] = *at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    va_start(ap, fmt);
    vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    va_end(ap);
    if (as_error)
        diag_error(c->d, at, "%s", msg);
    else
        diag_note(c->d, at, "%s", msg);
    free(msg);
}

/* The tokens of one diagnostic's neighbourhood, with their spellings. */
struct tokens {
    CXToken *v;
    unsigned n;
    char **text;
};

static bool token_is(const struct tokens *t, unsigned i, const char *text)
{
    return i < t->n && strcmp(t->text[i], text) == 0;
}

static bool token_is_tag_keyword(const struct tokens *t, unsigned i)
{
    return token_is(t, i, "struct") || token_is(t, i, "union") || token_is(t, i, "enum");
}

/* The source text of tokens [first, last], as written. */
static char *token_text(struct ctx *c, const struct tokens *t, unsigned first, unsigned last)
{
    CXFile file;
    unsigned from, to;
    clang_getSpellingLocation(clang_getTokenLocation(c->tu, t->v[first]), &file, NULL, NULL, &from);
    clang_getSpellingLocation(clang_getRangeEnd(clang_getTokenExtent(c->tu, t->v[last])), NULL,
                              NULL, NULL, &to);
    size_t size;
    const char *buf = clang_getFileContents(c->tu, file, &size);
    if (!buf || to < from || to > size)
        return xstrdup(t->text[first]);
    return xstrndup(buf + from, to - from);
}

/* The index of the ')' closing the '(' at `open`, or `open` if there is none. */
static unsigned closing_paren(const struct tokens *t, unsigned open)
{
    unsigned depth = 0;
    for (unsigned i = open; i < t->n; i++) {
        if (token_is(t, i, "("))
            depth++;
        else if (token_is(t, i, ")") && --depth == 0)
            return i;
    }
    return open;
}

/* Hints for the AVRO_ identifier at token i. */
static void hint_token(struct ctx *c, const struct tokens *t, unsigned i, bool as_error)
{
    const char *ident = t->text[i];
    struct model_loc at = source_loc(c, clang_getTokenLocation(c->tu, t->v[i]));
    bool takes_args = false;
    const char *kind = annot_macro_kind(ident, &takes_args);
    if (!kind) {
        const char *meant = annot_suggest_macro(ident);
        if (meant)
            hint(c, as_error, &at, "'%s' is not an avrogen annotation; did you mean '%s'?", ident,
                 meant);
        return;
    }
    if (takes_args && !token_is(t, i + 1, "(")) {
        hint(c, as_error, &at, "%s takes parentheses: write '%s()'", ident, ident);
        return;
    }
    bool on_type = strcmp(kind, "record") == 0 || strcmp(kind, "enum") == 0;
    if (on_type && i >= 2 && token_is_tag_keyword(t, i - 2) &&
        clang_getTokenKind(t->v[i - 1]) == CXToken_Identifier) {
        unsigned close = takes_args ? closing_paren(t, i + 1) : i;
        char *annot = token_text(c, t, i, close);
        hint(c, as_error, &at, "%s goes between '%s' and the tag: '%s %s %s'", ident,
             t->text[i - 2], t->text[i - 2], annot, t->text[i - 1]);
        free(annot);
    }
}

/*
 * Hints for the AVRO_ identifiers on the line of a clang diagnostic at
 * `where`, and in the first token after it (clang puts "expected ';'" right
 * after the previous token, which may end the line before).
 */
static void hint_diagnostic(struct ctx *c, CXSourceLocation where, bool as_error)
{
    CXFile file;
    unsigned line, column, offset;
    clang_getExpansionLocation(where, &file, &line, &column, &offset);
    if (!file)
        return;
    size_t size;
    if (!clang_getFileContents(c->tu, file, &size))
        return;
    CXSourceLocation from = clang_getLocation(c->tu, file, line, 1);
    CXSourceLocation to = clang_getLocation(c->tu, file, line + 2, 1);
    unsigned to_offset;
    clang_getSpellingLocation(to, NULL, NULL, NULL, &to_offset);
    if (to_offset <= offset) /* the file has no line + 2 */
        to = clang_getLocationForOffset(c->tu, file, (unsigned)size);
    struct tokens t = {NULL, 0, NULL};
    clang_tokenize(c->tu, clang_getRange(from, to), &t.v, &t.n);
    t.text = xcalloc(t.n ? t.n : 1, sizeof *t.text);
    for (unsigned i = 0; i < t.n; i++)
        t.text[i] = take_string(clang_getTokenSpelling(c->tu, t.v[i]));
    bool after = false; /* the first token past the diagnostic was seen */
    for (unsigned i = 0; i < t.n; i++) {
        unsigned tline, toff;
        clang_getSpellingLocation(clang_getTokenLocation(c->tu, t.v[i]), NULL, &tline, NULL, &toff);
        bool first_after = !after && toff >= offset;
        after = after || first_after;
        if ((tline == line || first_after) && clang_getTokenKind(t.v[i]) == CXToken_Identifier &&
            strncmp(t.text[i], "AVRO_", 5) == 0)
            hint_token(c, &t, i, as_error);
    }
    for (unsigned i = 0; i < t.n; i++)
        free(t.text[i]);
    free(t.text);
    clang_disposeTokens(c->tu, t.v, t.n);
}

/*
 * A file-scope function or variable named like an annotation is one that did
 * not expand: `} AVRO_RECORDD();` declares a function, `} AVRO_RECORD;` a
 * variable, `AVRO_EXTERN_RECORDD(struct x);` an implicit-int function.
 */
static void hint_declaration(struct ctx *c, CXCursor cur)
{
    char *name = take_string(clang_getCursorSpelling(cur));
    struct model_loc at = cursor_loc(c, cur);
    bool takes_args = false;
    const char *meant = annot_suggest_macro(name);
    if (meant)
        hint(c, true, &at, "'%s' is not an avrogen annotation; did you mean '%s'?", name, meant);
    else if (annot_macro_kind(name, &takes_args) && takes_args)
        hint(c, true, &at, "%s takes parentheses: write '%s()'", name, name);
    free(name);
}

/*
 * Annotations on a typedef, a variable or a function (`what`) annotate
 * nothing: clang keeps them on that declaration, where no avrogen rule looks.
 * A warning at each, saying where they belong.
 */
static void warn_misplaced(struct ctx *c, CXCursor cur, const char *what)
{
    struct cannot *all;
    size_t n;
    annotations(c, cur, &all, &n);
    char *name = n != 0 ? take_string(clang_getCursorSpelling(cur)) : NULL;
    for (size_t i = 0; i < n; i++) {
        diag_warning(c->d, &all[i].loc,
                     "%s on %s '%s' is ignored: annotations apply to struct, union and enum "
                     "declarations (AVRO_RECORD, AVRO_ENUM between the keyword and the tag) "
                     "and their members",
                     annot_macro(all[i].kind), what, name);
        free(all[i].kind);
        free(all[i].text);
    }
    free(name);
    free(all);
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

/* Every enumerator of every enum goes into cunit.constants (AVRO_TAG). */
static enum CXChildVisitResult add_constant(CXCursor cur, CXCursor parent, void *data)
{
    struct ctx *c = data;
    if (clang_getCursorKind(cur) != CXCursor_EnumConstantDecl)
        return CXChildVisit_Continue;
    struct cunit *u = c->u;
    u->constants = xappend(u->constants, u->n_constants, sizeof *u->constants);
    struct cconstant *k = &u->constants[u->n_constants++];
    k->name = take_string(clang_getCursorSpelling(cur));
    k->value = is_signed_integer(clang_getEnumDeclIntegerType(parent))
                       ? (int64_t)clang_getEnumConstantDeclValue(cur)
                       : (int64_t)clang_getEnumConstantDeclUnsignedValue(cur);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult walk(CXCursor cur, CXCursor parent, void *data)
{
    struct ctx *c = data;
    switch (clang_getCursorKind(cur)) {
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
    case CXCursor_EnumDecl:
        if (clang_isCursorDefinition(cur) && is_annotated(cur))
            add_root(c, cur);
        if (clang_getCursorKind(cur) == CXCursor_EnumDecl && clang_isCursorDefinition(cur))
            clang_visitChildren(cur, add_constant, c);
        return CXChildVisit_Recurse; /* struct definitions may nest */
    case CXCursor_TypedefDecl:
        if (is_marker(cur)) {
            c->markers = xappend(c->markers, c->n_markers, sizeof *c->markers);
            c->markers[c->n_markers++] = cur;
            return CXChildVisit_Continue;
        } else {
            if (!in_system_header(cur))
                warn_misplaced(c, cur, "typedef");
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
    case CXCursor_FunctionDecl:
    case CXCursor_VarDecl:
        if (!in_system_header(cur) && clang_getCursorKind(parent) == CXCursor_TranslationUnit) {
            hint_declaration(c, cur);
            warn_misplaced(c, cur,
                           clang_getCursorKind(cur) == CXCursor_VarDecl ? "variable" : "function");
        }
        return CXChildVisit_Continue;
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
            free(a->expanded);
            continue;
        }
        mk->annots = xappend(mk->annots, mk->n_annots, sizeof *mk->annots);
        mk->annots[mk->n_annots++] = *a;
    }
    free(all);
}

/* ---- diagnostics, inclusions, entry point ----------------------------- */

/* A note inside <avrogen/annotate.h> ("expanded from macro 'AVROGEN_ANNOTATE'")
 * shows the macros' insides, which tell the user nothing. */
static bool is_annotate_h_note(CXDiagnostic diag)
{
    CXFile file;
    clang_getSpellingLocation(clang_getDiagnosticLocation(diag), &file, NULL, NULL, NULL);
    if (!file)
        return false;
    char *name = take_string(clang_getFileName(file));
    size_t n = strlen(name), k = strlen("/avrogen/annotate.h");
    bool r = n >= k && strcmp(name + n - k, "/avrogen/annotate.h") == 0;
    free(name);
    return r;
}

static void forward_diagnostic(struct ctx *c, CXDiagnostic diag)
{
    struct diag *d = c->d;
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(diag);
    if (sev >= CXDiagnostic_Warning || (sev == CXDiagnostic_Note && !is_annotate_h_note(diag))) {
        char *text =
                take_string(clang_formatDiagnostic(diag, clang_defaultDiagnosticDisplayOptions()));
        if (sev == CXDiagnostic_Note)
            fprintf(d->out, "%s\n", text);
        else
            diag_forward(d, text, sev >= CXDiagnostic_Error);
        free(text);
        c->clang_failed = c->clang_failed || sev >= CXDiagnostic_Error;
    }
    CXDiagnosticSet children = clang_getChildDiagnostics(diag);
    unsigned n = clang_getNumDiagnosticsInSet(children);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic child = clang_getDiagnosticInSet(children, i);
        forward_diagnostic(c, child);
        clang_disposeDiagnostic(child);
    }
    if (sev >= CXDiagnostic_Warning)
        hint_diagnostic(c, clang_getDiagnosticLocation(diag), sev < CXDiagnostic_Error);
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
#ifdef AVROGEN_INSTALLED_ANNOTATE_RELDIR
    char exe[4096];
    if (exe_dir(exe, sizeof exe)) {
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

/* A -std=, --std or -ansi among the caller's arguments. */
static bool has_dialect_arg(const char *const *args, size_t n)
{
    return has_prefix_arg(args, n, "-std=") || has_prefix_arg(args, n, "--std") ||
           has_prefix_arg(args, n, "-ansi");
}

/* Whether the caller's arguments ask for strict ISO C (-std=c11, -std=iso9899:2011,
 * -ansi: __STRICT_ANSI__, under which glibc defines no POSIX or GNU feature
 * macro) and define none of the feature macros themselves. */
static bool strict_iso_args(const char *const *args, size_t n)
{
    bool strict = false;
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        if (strncmp(a, "--std=", 6) == 0)
            a++;
        if (strcmp(a, "-ansi") == 0 || strncmp(a, "-std=c", 6) == 0 ||
            strncmp(a, "-std=iso", 8) == 0)
            strict = true;
        else if (strncmp(a, "-std=", 5) == 0)
            strict = false; /* the last -std wins, as in cc */
    }
    static const char *const features[] = {"_GNU_SOURCE",   "_DEFAULT_SOURCE", "_POSIX_C_SOURCE",
                                           "_XOPEN_SOURCE", "_BSD_SOURCE",     "_SVID_SOURCE",
                                           "_POSIX_SOURCE"};
    for (size_t i = 0; strict && i < n; i++) {
        const char *a = args[i];
        if (strcmp(a, "-D") == 0 && i + 1 < n)
            a = args[++i];
        else if (strncmp(a, "-D", 2) == 0)
            a += 2;
        else
            continue;
        for (size_t f = 0; f < sizeof features / sizeof *features; f++) {
            size_t len = strlen(features[f]);
            if (strncmp(a, features[f], len) == 0 && (a[len] == '\0' || a[len] == '='))
                strict = false;
        }
    }
    return strict;
}

/* The language a -x argument asks for ("-x c++", "-xc++"), or NULL at none. */
static const char *language_arg(const char *const *args, size_t n_args, size_t *i)
{
    for (; *i < n_args; (*i)++) {
        if (strcmp(args[*i], "-x") == 0 && *i + 1 < n_args)
            return args[++*i];
        if (strncmp(args[*i], "-x", 2) == 0 && args[*i][2] != '\0')
            return args[*i] + 2;
    }
    return NULL;
}

/* What clang_parseTranslationUnit2's error code means, for a message. */
static const char *cx_error_text(enum CXErrorCode err)
{
    switch (err) {
    case CXError_Crashed:
        return "libclang crashed";
    case CXError_InvalidArguments:
        return "libclang took the arguments as invalid";
    case CXError_ASTReadError:
        return "libclang could not build or read the translation unit";
    default:
        return "libclang failed";
    }
}

int clang_parse(const char *header, const char *const *args, size_t n_args, struct diag *d,
                struct cunit **out)
{
    *out = NULL;
    /* avrogen maps C: a header parsed as another language gives libclang's bare
     * error code at best, so such a -x is refused by name. */
    for (size_t i = 0; i < n_args; i++) {
        const char *lang = language_arg(args, n_args, &i);
        if (lang && strcmp(lang, "c") != 0 && strcmp(lang, "c-header") != 0) {
            diag_error(d, NULL,
                       "'-x %s' after '--' asks clang to parse '%s' as another language; avrogen "
                       "reads C headers (-x c, the default)",
                       lang, header);
            return 1;
        }
    }
    const char **argv = xcalloc(n_args + 10, sizeof *argv);
    int argc = 0;
    if (!has_prefix_arg(args, n_args, "-x"))
        argv[argc++] = "-xc";
    /* The dialect plain `cc` compiles with (docs/DESIGN.md, Annotations: The
     * dialect): glibc's headers lay out struct stat and declare struct
     * addrinfo by the feature macros a dialect implies. */
    if (!has_dialect_arg(args, n_args))
        argv[argc++] = "-std=" AVROGEN_DEFAULT_DIALECT;
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
        /* No translation unit, so no diagnostics of clang's: say what we know. */
        char given[512] = "";
        for (size_t i = 0, len = 0; i < n_args && len < sizeof given - 1; i++)
            len += (size_t)snprintf(given + len, sizeof given - len, " %s", args[i]);
        diag_error(d, NULL, "libclang could not parse '%s': %s (error %d)%s%s", header,
                   cx_error_text(err), (int)err, n_args ? "; clang arguments given:" : "", given);
        clang_disposeIndex(index);
        return 1;
    }

    struct cunit *u = xcalloc(1, sizeof *u);
    u->header = xstrdup(header);
    u->strict_iso = strict_iso_args(args, n_args);
    struct ctx c = {.tu = tu, .u = u, .main_file = clang_getFile(tu, header), .d = d};
    unsigned n_diags = clang_getNumDiagnostics(tu);
    unsigned errors_before = d->errors;
    for (unsigned i = 0; i < n_diags; i++) {
        CXDiagnostic diag = clang_getDiagnostic(tu, i);
        forward_diagnostic(&c, diag);
        clang_disposeDiagnostic(diag);
    }
    if (!c.clang_failed) {
        clang_getInclusions(tu, visit_inclusion, u);
        clang_visitChildren(clang_getTranslationUnitCursor(tu), walk, &c);
        for (size_t i = 0; i < c.n_roots; i++)
            get_decl(&c, c.roots[i]);
        for (size_t i = 0; i < c.n_markers; i++)
            add_marker(&c, c.markers[i]);
    }

    for (size_t i = 0; i < c.n_typedefs; i++)
        free(c.typedefs[i].typedef_name);
    free(c.typedefs);
    free(c.decls);
    free(c.roots);
    free(c.markers);
    free(c.hinted);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    if (d->errors > errors_before) {
        cunit_free(u);
        return 1;
    }
    *out = u;
    return 0;
}

/* ---- freeing --------------------------------------------------------- */

static void free_annots(struct cannot *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].kind);
        free(v[i].text);
        free(v[i].expanded);
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
    for (size_t i = 0; i < u->n_constants; i++)
        free(u->constants[i].name);
    free(u->constants);
    free(u->header);
    free(u);
}
