#include "ModelRouter.h"

#include "ApiError.h"

#include "gguf/split_name.h"
#include "util/error.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace hearth::server {

namespace fs = std::filesystem;

namespace {

bool isGguf(const fs::path& p)
{
    return p.extension() == ".gguf";
}

bool isProjector(const std::string& name)
{
    return name.rfind("mmproj", 0) == 0;
}

// "x-00002-of-00003.gguf": a later part of a split model (skipped; the
// first part loads them all).
bool isLaterSplit(const std::string& name, std::string* base)
{
    const std::optional<hearth::gguf::SplitName> split = hearth::gguf::parseSplitName(name);
    if (!split)
        return false;
    if (base)
        *base = split->stem;
    return split->part != 1;
}

bool inside(const fs::path& root, const fs::path& p)
{
    const auto [r, q] = std::mismatch(root.begin(), root.end(), p.begin(), p.end());
    return r == root.end();
}

int64_t mtimeSeconds(const fs::path& p)
{
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    if (ec)
        return 0;
    const auto sys = std::chrono::file_clock::to_sys(t);
    return std::chrono::duration_cast<std::chrono::seconds>(sys.time_since_epoch()).count();
}

// The model file of a sub-folder: the first part of a split model, else its
// only (or first by name) .gguf that is not a projector.
std::string folderModel(const fs::path& root, const fs::path& dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(dir, ec)) {
        const std::string name = f.path().filename().string();
        if (!isGguf(f.path()) || isProjector(name) || isLaterSplit(name, nullptr))
            continue;
        const fs::path real = fs::weakly_canonical(f.path(), ec);
        if (ec || !inside(root, real) || !fs::is_regular_file(real, ec))
            continue;
        names.push_back(name);
    }
    if (names.empty())
        return {};
    std::sort(names.begin(), names.end());
    return (dir / names.front()).string();
}

} // namespace

std::vector<ModelFile> scanModelsDir(const std::string& dir)
{
    std::error_code ec;
    const fs::path root = fs::canonical(dir, ec);
    if (ec || !fs::is_directory(root, ec))
        throw Error("cannot read the models folder " + dir + ": " + (ec ? ec.message() : "not a folder"));
    std::vector<ModelFile> out;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        const fs::path p = entry.path();
        const std::string name = p.filename().string();
        if (name.empty() || name[0] == '.')
            continue;
        std::error_code e2;
        const fs::path real = fs::weakly_canonical(p, e2);
        if (e2 || !inside(root, real)) // a symlink out of the folder
            continue;
        if (fs::is_directory(real, e2)) {
            const std::string file = folderModel(root, real);
            if (!file.empty())
                out.push_back(ModelFile{name, file});
        } else if (isGguf(p) && !isProjector(name) && fs::is_regular_file(real, e2)) {
            std::string base;
            if (isLaterSplit(name, &base))
                continue;
            const std::string id = base.empty() ? p.stem().string() : base;
            out.push_back(ModelFile{id, real.string()});
        }
    }
    if (ec)
        throw Error("cannot read the models folder " + dir + ": " + ec.message());
    std::sort(out.begin(), out.end(), [](const ModelFile& a, const ModelFile& b) { return a.id < b.id; });
    out.erase(std::unique(out.begin(), out.end(), [](const ModelFile& a, const ModelFile& b) { return a.id == b.id; }),
              out.end());
    return out;
}

const char* modelStatusName(ModelStatus s)
{
    switch (s) {
    case ModelStatus::Unloaded: return "unloaded";
    case ModelStatus::Loading: return "loading";
    case ModelStatus::Loaded: return "loaded";
    case ModelStatus::Failed: return "failed";
    }
    return "?";
}

struct ModelRouter::Entry {
    ModelFile file;
    int64_t created = 0;
    ModelStatus status = ModelStatus::Unloaded;
    std::string error;
    std::shared_ptr<BatchEngine> engine;
    int active = 0; // leases
    uint64_t lastUsed = 0;
};

ModelRouter::ModelRouter(std::vector<ModelFile> models, LoadConfig config, int maxLoaded, bool routerMode)
    : m_config(std::move(config)), m_maxLoaded(maxLoaded), m_routerMode(routerMode)
{
    for (ModelFile& f : models) {
        auto e = std::make_unique<Entry>();
        e->created = mtimeSeconds(f.path);
        e->file = std::move(f);
        m_entries.push_back(std::move(e));
    }
}

ModelRouter::~ModelRouter()
{
    m_cancel.store(true);
    for (std::thread& t : m_loaders)
        t.join();
    std::lock_guard lock(m_mutex);
    m_entries.clear();
}

ModelRouter::Lease::Lease(ModelRouter& r, size_t index, std::shared_ptr<BatchEngine> e)
    : m_router(r), m_index(index), m_engine(std::move(e))
{
}

ModelRouter::Lease::~Lease()
{
    m_router.release(m_index);
}

const std::string& ModelRouter::Lease::id() const
{
    return m_router.m_entries[m_index]->file.id;
}

size_t ModelRouter::find(const std::string& id) const
{
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i]->file.id == id)
            return i;
    return std::string::npos;
}

bool ModelRouter::ready() const
{
    std::lock_guard lock(m_mutex);
    if (m_routerMode)
        return true;
    return !m_entries.empty() && m_entries.front()->status == ModelStatus::Loaded;
}

std::string ModelRouter::error(size_t index) const
{
    std::lock_guard lock(m_mutex);
    return index < m_entries.size() ? m_entries[index]->error : std::string();
}

void ModelRouter::startLoading(size_t index)
{
    std::unique_lock lock(m_mutex);
    loadInBackground(index, lock);
}

void ModelRouter::loadInBackground(size_t index, std::unique_lock<std::mutex>&)
{
    Entry& e = *m_entries[index];
    e.status = ModelStatus::Loading;
    e.error.clear();
    m_loaders.emplace_back([this, index] {
        const std::string path = m_entries[index]->file.path;
        std::shared_ptr<BatchEngine> engine;
        std::string error;
        try {
            engine = BatchEngine::load(path, m_config, &m_cancel);
        } catch (const std::exception& ex) {
            error = ex.what();
        }
        {
            std::lock_guard lock(m_mutex);
            Entry& entry = *m_entries[index];
            entry.engine = std::move(engine);
            entry.status = entry.engine ? ModelStatus::Loaded : ModelStatus::Failed;
            entry.error = error;
            entry.lastUsed = ++m_clock;
        }
        m_cv.notify_all();
    });
}

bool ModelRouter::makeRoom(std::unique_lock<std::mutex>& lock, size_t forIndex)
{
    for (;;) {
        if (m_maxLoaded <= 0)
            return true;
        int loaded = 0;
        Entry* victim = nullptr;
        for (size_t i = 0; i < m_entries.size(); ++i) {
            Entry& e = *m_entries[i];
            if (e.status != ModelStatus::Loaded && e.status != ModelStatus::Loading)
                continue;
            ++loaded;
            if (i != forIndex && e.status == ModelStatus::Loaded && e.active == 0 &&
                (!victim || e.lastUsed < victim->lastUsed))
                victim = &e;
        }
        if (loaded < m_maxLoaded)
            return true;
        if (!victim)
            return false;
        std::shared_ptr<BatchEngine> engine = std::move(victim->engine);
        victim->status = ModelStatus::Unloaded;
        lock.unlock();
        engine.reset(); // idle: nothing to cancel
        lock.lock();
    }
}

std::unique_ptr<ModelRouter::Lease> ModelRouter::acquire(const std::string& id)
{
    std::unique_lock lock(m_mutex);
    size_t index = find(id);
    if (index == std::string::npos && !m_routerMode && (id.empty() || m_entries.size() == 1))
        index = 0; // one model: any name reaches it, as with llama-server
    if (index == std::string::npos || index >= m_entries.size()) {
        if (id.empty())
            throw badRequest("'model' is required: this server serves several models (GET /v1/models)", "model");
        throw notFound("the model '" + id + "' does not exist (GET /v1/models lists them)");
    }
    Entry& e = *m_entries[index];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    for (;;) {
        switch (e.status) {
        case ModelStatus::Loaded:
            ++e.active;
            e.lastUsed = ++m_clock;
            return std::make_unique<Lease>(*this, index, e.engine);
        case ModelStatus::Failed:
            throw serverError("the model '" + e.file.id + "' failed to load: " + e.error +
                              (m_routerMode ? " (POST /models/load tries again)" : ""));
        case ModelStatus::Loading:
            if (!m_routerMode)
                throw unavailable("the model is loading");
            break;
        case ModelStatus::Unloaded:
            if (!m_routerMode)
                throw unavailable("the model is not loaded");
            if (makeRoom(lock, index) && e.status == ModelStatus::Unloaded) {
                loadInBackground(index, lock);
            }
            break;
        }
        if (m_cv.wait_until(lock, deadline) == std::cv_status::timeout && e.status != ModelStatus::Loaded)
            throw unavailable("timed out waiting for the model '" + e.file.id +
                              "': every loaded model is serving requests (--models-max " + std::to_string(m_maxLoaded) +
                              ")");
    }
}

void ModelRouter::release(size_t index)
{
    {
        std::lock_guard lock(m_mutex);
        Entry& e = *m_entries[index];
        --e.active;
        e.lastUsed = ++m_clock;
    }
    m_cv.notify_all();
}

std::vector<ModelState> ModelRouter::list() const
{
    std::lock_guard lock(m_mutex);
    std::vector<ModelState> out;
    for (const auto& e : m_entries) {
        ModelState s;
        s.id = e->file.id;
        s.status = e->status;
        s.error = e->error;
        s.created = e->created;
        if (e->engine) {
            s.contextSize = e->engine->contextSize();
            s.slotContext = e->engine->slotContext();
            s.slotCount = e->engine->slotCount();
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<std::pair<std::string, EngineMetrics>> ModelRouter::metrics() const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::pair<std::string, EngineMetrics>> out;
    for (const auto& e : m_entries)
        if (e->engine)
            out.emplace_back(e->file.id, e->engine->metrics());
    return out;
}

void ModelRouter::load(const std::string& id)
{
    std::unique_lock lock(m_mutex);
    const size_t index = find(id);
    if (index == std::string::npos)
        throw notFound("the model '" + id + "' does not exist (GET /models lists them)");
    Entry& e = *m_entries[index];
    if (e.status == ModelStatus::Loaded || e.status == ModelStatus::Loading)
        throw badRequest("the model '" + id + "' is already " + modelStatusName(e.status), "model");
    if (!makeRoom(lock, index))
        throw unavailable("no room for another model: every loaded model is serving requests (--models-max " +
                          std::to_string(m_maxLoaded) + ")");
    if (e.status != ModelStatus::Loaded && e.status != ModelStatus::Loading)
        loadInBackground(index, lock);
}

void ModelRouter::unload(const std::string& id)
{
    std::unique_lock lock(m_mutex);
    const size_t index = find(id);
    if (index == std::string::npos)
        throw badRequest("the model '" + id + "' does not exist", "model");
    Entry& e = *m_entries[index];
    if (e.status != ModelStatus::Loaded)
        throw badRequest("the model '" + id + "' is not loaded (" + modelStatusName(e.status) + ")", "model");
    if (e.active > 0)
        throw badRequest("the model '" + id + "' is serving " + std::to_string(e.active) +
                             " requests; unload it when they are done",
                         "model");
    std::shared_ptr<BatchEngine> engine = std::move(e.engine);
    e.status = ModelStatus::Unloaded;
    lock.unlock();
    engine.reset();
    m_cv.notify_all();
}

} // namespace hearth::server
