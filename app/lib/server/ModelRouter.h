// The models a server offers and their engines. Two modes:
//  - one model (`-m FILE`): loaded at start; until then requests get 503
//    with Retry-After;
//  - router (`--models-dir DIR`): the folder is scanned once at start, and
//    a model's id is its file name without ".gguf" (a sub-folder holding
//    split files or one model is named after the folder). A request's
//    "model" is looked up among those ids only, never used as a path, and
//    a file whose real path lies outside the folder (a symlink out) is not
//    listed. Models load on demand (concurrent requests for one model share
//    one load); at most `maxLoaded` stay loaded, and the least recently used
//    idle one is unloaded to make room, never one that is serving.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include "BatchEngine.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace hearth::server {

struct ModelFile {
    std::string id;
    std::string path; // the .gguf (first part of a split model)
};

// The models of a folder (see above), sorted by id. Throws hearth::Error
// when the folder cannot be read.
std::vector<ModelFile> scanModelsDir(const std::string& dir);

enum class ModelStatus {
    Unloaded,
    Loading,
    Loaded,
    Failed
};
const char* modelStatusName(ModelStatus s);

struct ModelState {
    std::string id;
    ModelStatus status = ModelStatus::Unloaded;
    std::string error;   // why the last load failed
    int64_t created = 0; // seconds since the epoch (the file's mtime)
    int64_t contextSize = 0, slotContext = 0;
    int slotCount = 0;
};

class ModelRouter {
public:
    // maxLoaded <= 0: no limit. routerMode: models load on demand.
    ModelRouter(std::vector<ModelFile> models, LoadConfig config, int maxLoaded, bool routerMode);
    ~ModelRouter();

    // A model in use: its engine stays loaded while a lease exists.
    class Lease {
    public:
        Lease(ModelRouter& r, size_t index, std::shared_ptr<BatchEngine> e);
        ~Lease();
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        BatchEngine& engine() const { return *m_engine; }
        const std::string& id() const;

    private:
        ModelRouter& m_router;
        size_t m_index;
        std::shared_ptr<BatchEngine> m_engine;
    };

    bool routerMode() const { return m_routerMode; }
    // One-model mode: whether the model is ready (for /health); router: true.
    bool ready() const;

    // The model named `id` ("" or absent picks the only model in one-model
    // mode), loading it when needed. Throws ApiError: 404 for an unknown id,
    // 503 while a one-model server is loading or when no room can be made
    // in time, 500 when the load failed.
    std::unique_ptr<Lease> acquire(const std::string& id);

    std::vector<ModelState> list() const;
    // The counters of each loaded model (does not count as a use).
    std::vector<std::pair<std::string, EngineMetrics>> metrics() const;
    // Starts loading (returns at once). 404 unknown; 400 already loaded or loading.
    void load(const std::string& id);
    // 400 unknown, not loaded, or serving requests.
    void unload(const std::string& id);
    // Loads the one model now (one-model mode, at start); false after a
    // failure, which error() then describes.
    void startLoading(size_t index);
    std::string error(size_t index) const;

private:
    struct Entry;
    size_t find(const std::string& id) const; // npos when unknown
    void loadInBackground(size_t index, std::unique_lock<std::mutex>& lock);
    bool makeRoom(std::unique_lock<std::mutex>& lock, size_t forIndex);
    void release(size_t index);

    LoadConfig m_config;
    int m_maxLoaded;
    bool m_routerMode;
    std::vector<std::unique_ptr<Entry>> m_entries;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    uint64_t m_clock = 0;
    std::atomic<bool> m_cancel{false};
    std::vector<std::thread> m_loaders;
};

} // namespace hearth::server
